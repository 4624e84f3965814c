package io.bullpen.spring.boot.autoconfigure.dashboard;

import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may read the dashboard mounted under the application's server (its queues, jobs, data,
 * failed reasons, stack traces). Reads need the token, in the {@code X-Bullpen-Token} header, as
 * actions do, unless
 * <ol>
 *   <li>{@code bullpen.dashboard.public-read=true} says the dashboard is meant to be open, or</li>
 *   <li>a Spring Security {@code SecurityFilterChain} of the application matches
 *       {@code <path>/api/queues}: its rules decide (a {@code permitAll} counts as the
 *       application's decision).</li>
 * </ol>
 * Decided once, when the application is ready or at the first request (whichever comes first:
 * both come after every bean, the security chains included, was built), and logged once: a WARN
 * when reads need a token and none is configured, so every read is refused.
 */
final class DashboardReadAccess {
    private static final Logger log = LoggerFactory.getLogger(DashboardReadAccess.class);

    private final boolean publicRead;
    private final boolean tokenConfigured;
    private final String readPath;
    private final Supplier<List<String>> matchingChains;
    private volatile Boolean tokenNeeded;

    /**
     * @param readPath the path a read of the API has on the server, e.g. {@code /bullpen/api/queues}
     * @param matchingChains the names of the SecurityFilterChain beans that match a read (empty
     *     without Spring Security)
     */
    DashboardReadAccess(boolean publicRead, boolean tokenConfigured, String readPath,
                        Supplier<List<String>> matchingChains) {
        this.publicRead = publicRead;
        this.tokenConfigured = tokenConfigured;
        this.readPath = readPath;
        this.matchingChains = matchingChains;
    }

    /** @return whether a read needs the token (decided and logged on the first call) */
    boolean tokenNeeded() {
        Boolean decided = tokenNeeded;
        if (decided == null) {
            synchronized (this) {
                decided = tokenNeeded;
                if (decided == null) {
                    decided = decide();
                    tokenNeeded = decided;
                }
            }
        }
        return decided;
    }

    /** @return whether every read is refused: reads need the token and none is configured */
    boolean refusesEveryRead() {
        return tokenNeeded() && !tokenConfigured;
    }

    /** @return the 401 message of a read when {@link #refusesEveryRead()}, naming the three ways to open it */
    String refusal() {
        return "this dashboard's reads need the token, and bullpen.dashboard.token is not set: set it (and send it "
                + "in the X-Bullpen-Token header; the page asks for it), protect " + readPath.replace("/api/queues", "")
                + "/** with a Spring Security SecurityFilterChain, or set bullpen.dashboard.public-read=true to open "
                + "the dashboard to anyone who reaches it";
    }

    private boolean decide() {
        if (publicRead) {
            log.info("the Bullpen dashboard's reads are open to anyone who reaches {} "
                    + "(bullpen.dashboard.public-read=true); actions need the token", readPath);
            return false;
        }
        List<String> chains = matchingChains.get();
        if (!chains.isEmpty()) {
            log.info("the Bullpen dashboard's reads are left to Spring Security: SecurityFilterChain {} matches {}; "
                    + "actions need the token", chains, readPath);
            return false;
        }
        if (tokenConfigured) {
            log.info("the Bullpen dashboard's reads and actions need bullpen.dashboard.token in the X-Bullpen-Token "
                    + "header (no SecurityFilterChain matches {}, bullpen.dashboard.public-read is not set)", readPath);
        } else {
            log.warn("the Bullpen dashboard answers every read with 401: {}", refusal());
        }
        return true;
    }
}
