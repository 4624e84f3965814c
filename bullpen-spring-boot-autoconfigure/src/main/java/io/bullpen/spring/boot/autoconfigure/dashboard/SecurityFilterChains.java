package io.bullpen.spring.boot.autoconfigure.dashboard;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.MappingMatch;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.util.ClassUtils;

/**
 * Asks the application's Spring Security {@link SecurityFilterChain} beans whether they match a
 * request for the mounted dashboard's API. Loaded only when Spring Security's web module is on
 * the class path ({@link #present()}).
 */
final class SecurityFilterChains {
    private static final Logger log = LoggerFactory.getLogger(SecurityFilterChains.class);
    private static final String CHAIN = "org.springframework.security.web.SecurityFilterChain";

    private SecurityFilterChains() {
    }

    /** @return whether Spring Security's web module is on the class path */
    static boolean present() {
        return ClassUtils.isPresent(CHAIN, SecurityFilterChains.class.getClassLoader());
    }

    /**
     * @param beans the application's beans (its ancestors' included)
     * @param contextPath the serving server's context path ("" for none)
     * @param servletPath the dashboard's servlet path, e.g. {@code /bullpen}
     * @param pathInfo the path of a read below it, e.g. {@code /api/queues}
     * @param servletContext the serving server's servlet context, or null
     * @return the names of the chains that match a GET of that path; a chain that cannot say
     *     (it fails on the synthetic request) counts as not matching, with a WARN
     */
    static List<String> matching(ListableBeanFactory beans, String contextPath, String servletPath, String pathInfo,
                                 ServletContext servletContext) {
        List<String> names = new ArrayList<>();
        Map<String, SecurityFilterChain> chains =
                BeanFactoryUtils.beansOfTypeIncludingAncestors(beans, SecurityFilterChain.class);
        chains.forEach((name, chain) -> {
            HttpServletRequest request = request(contextPath, servletPath, pathInfo, servletContext);
            try {
                if (chain.matches(request)) {
                    names.add(name);
                }
            } catch (RuntimeException e) {
                log.warn("cannot tell whether SecurityFilterChain {} matches {}{}{} ({}): the dashboard's reads "
                        + "need its token unless bullpen.dashboard.public-read=true", name, contextPath, servletPath,
                        pathInfo, e.toString());
            }
        });
        return names;
    }

    /** A GET request of that path as the servlet container would hand it to the dashboard's servlet. */
    static HttpServletRequest request(String contextPath, String servletPath, String pathInfo,
                                      ServletContext servletContext) {
        String uri = contextPath + servletPath + pathInfo;
        Map<String, Object> attributes = new HashMap<>();
        HttpServletMapping mapping = new HttpServletMapping() {
            @Override
            public String getMatchValue() {
                return pathInfo.substring(1);
            }

            @Override
            public String getPattern() {
                return servletPath + "/*";
            }

            @Override
            public String getServletName() {
                return "bullpenDashboard";
            }

            @Override
            public MappingMatch getMappingMatch() {
                return MappingMatch.PATH;
            }
        };
        return (HttpServletRequest) Proxy.newProxyInstance(SecurityFilterChains.class.getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getMethod": return "GET";
                        case "getRequestURI": return uri;
                        case "getRequestURL": return new StringBuffer("http://localhost").append(uri);
                        case "getContextPath": return contextPath;
                        case "getServletPath": return servletPath;
                        case "getPathInfo": return pathInfo;
                        case "getPathTranslated", "getQueryString", "getHeader", "getParameter", "getParameterValues",
                                "getCookies", "getSession", "getUserPrincipal", "getAuthType", "getRemoteUser",
                                "getRequestedSessionId", "getCharacterEncoding", "getContentType":
                            return null;
                        case "getHttpServletMapping": return mapping;
                        case "getServletContext": return servletContext;
                        case "getScheme": return "http";
                        case "getProtocol": return "HTTP/1.1";
                        case "getServerName", "getLocalName", "getRemoteHost": return "localhost";
                        case "getRemoteAddr", "getLocalAddr": return "127.0.0.1";
                        case "getServerPort", "getLocalPort": return 80;
                        case "getDispatcherType": return DispatcherType.REQUEST;
                        case "getLocale": return Locale.ROOT;
                        case "getLocales": return Collections.enumeration(List.of(Locale.ROOT));
                        case "getHeaders", "getHeaderNames", "getParameterNames":
                            return Collections.emptyEnumeration();
                        case "getParameterMap", "getTrailerFields": return Map.of();
                        case "getAttribute": return attributes.get((String) args[0]);
                        case "getAttributeNames": return Collections.enumeration(new ArrayList<>(attributes.keySet()));
                        case "setAttribute":
                            if (args[1] == null) {
                                attributes.remove((String) args[0]);
                            } else {
                                attributes.put((String) args[0], args[1]);
                            }
                            return null;
                        case "removeAttribute":
                            attributes.remove((String) args[0]);
                            return null;
                        case "getIntHeader", "getDateHeader", "getContentLength", "getContentLengthLong":
                            return method.getReturnType() == long.class ? -1L : -1;
                        case "toString": return "GET " + uri + " (the Bullpen dashboard's read, asked of SecurityFilterChains)";
                        case "hashCode": return System.identityHashCode(proxy);
                        case "equals": return proxy == args[0];
                        default:
                            return defaultValue(method.getReturnType());
                    }
                });
    }

    private static Object defaultValue(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        return null;
    }
}
