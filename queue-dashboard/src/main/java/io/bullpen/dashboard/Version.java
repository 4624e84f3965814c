package io.bullpen.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Bullpen's version as packaged: the jar's pom.properties, else the version this source belongs to. */
final class Version {
    private static final String SOURCE_VERSION = "0.1.0-SNAPSHOT";
    private static final String POM_PROPERTIES = "/META-INF/maven/io.bullpen/queue-dashboard/pom.properties";

    private Version() {
    }

    static String get() {
        try (InputStream in = Version.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", SOURCE_VERSION);
            }
        } catch (IOException e) {
            // fall through: the source version is right for every build from this tree
        }
        return SOURCE_VERSION;
    }
}
