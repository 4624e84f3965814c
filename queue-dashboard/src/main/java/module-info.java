/**
 * Bullpen's web dashboard, {@link io.bullpen.dashboard.Dashboard}: live counts, job browsing and
 * actions, served by the JDK's HTTP server. Its page lives under {@code io/bullpen/dashboard/static/},
 * a folder that is not a package name, so the resources need no {@code opens}.
 */
module io.bullpen.dashboard {
    requires transitive io.bullpen;
    requires jdk.httpserver;
    requires org.slf4j;

    exports io.bullpen.dashboard;
}
