package io.bullpen.dashboard;

import java.net.InetAddress;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Which {@code Host} headers the server answers, against DNS rebinding: a web page whose own
 * domain is re-pointed at 127.0.0.1 would otherwise read a loopback dashboard's API. Bound to a
 * loopback address, only loopback names are answered ({@code localhost}, {@code *.localhost},
 * {@code 127.x.x.x}, {@code [::1]}), on any port (SSH tunnels change it). Bound to any other
 * address (or none: every interface, as under a servlet server bound to all) the operator has
 * chosen network exposure, and every host is answered.
 */
final class AllowedHosts implements Predicate<String> {
    private final boolean loopbackOnly;

    AllowedHosts(InetAddress bound) {
        this.loopbackOnly = bound != null && bound.isLoopbackAddress();
    }

    @Override
    public boolean test(String hostHeader) {
        if (!loopbackOnly || hostHeader == null) {
            return true;
        }
        String host = hostName(hostHeader.trim()).toLowerCase(Locale.ROOT);
        return host.equals("localhost") || host.endsWith(".localhost") || host.equals("[::1]")
                || host.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    /** "host:port" -> "host"; "[v6]:port" -> "[v6]". */
    private static String hostName(String header) {
        if (header.startsWith("[")) {
            int close = header.indexOf(']');
            return close < 0 ? header : header.substring(0, close + 1);
        }
        int colon = header.lastIndexOf(':');
        return colon < 0 ? header : header.substring(0, colon);
    }
}
