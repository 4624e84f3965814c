package io.bullpen.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One headless Chromium session of a browser test against dashboards it started: a throwaway
 * profile, the driver, screenshots in {@code target/screenshots/}; closing it quits the browser,
 * closes the dashboards and deletes the profile. Also the checks every browser test makes of a
 * page (a clean console, no markup made from job values).
 */
final class Browser implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Browser.class);
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final String TOKEN = "browser-test-token-6f1c2a";
    /** Markup in a job's name, data and failed reason: it must show as text and never run. */
    static final String XSS = "<script>window.__xss=1</script> \"><img src=x onerror=\"window.__xss=1\">";
    static final Duration WAIT = Duration.ofSeconds(10);

    private final List<Dashboard> dashboards = new ArrayList<>();
    private final Path profile;
    private final Path screenshots;
    private WebDriver driver;
    private WebDriverWait wait;

    private Browser(Path profile, Path screenshots) {
        this.profile = profile;
        this.screenshots = screenshots;
    }

    /** Skips the test where Chromium or its driver is not installed (CI installs both). */
    static void assumeAvailable() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "needs Chromium and its driver at /usr/bin/chromium and /usr/bin/chromedriver: "
                        + "apt-get update && apt-get install -y chromium chromium-driver (CI installs them)");
    }

    /** Starts the dashboards (closed with the browser), then Chromium. */
    static Browser open(Dashboard... dashboards) throws IOException {
        Path screenshots = Path.of(System.getProperty("basedir", ".")).resolve("target/screenshots").toAbsolutePath();
        Files.createDirectories(screenshots);
        Browser browser = new Browser(Files.createTempDirectory("bullpen-chromium-"), screenshots);
        try {
            for (Dashboard d : dashboards) {
                browser.start(d);
            }
            browser.driver = chromium(browser.profile);
            browser.wait = new WebDriverWait(browser.driver, WAIT);
            return browser;
        } catch (RuntimeException | Error e) {
            browser.close();
            throw e;
        }
    }

    /** Starts a dashboard the browser closes with itself. */
    Dashboard start(Dashboard dashboard) {
        dashboards.add(dashboard);
        dashboard.start();
        return dashboard;
    }

    WebDriver driver() {
        return driver;
    }

    /** A wait of {@link #WAIT} on this browser, shared by the test. */
    WebDriverWait waitFor() {
        return wait;
    }

    JavascriptExecutor js() {
        return (JavascriptExecutor) driver;
    }

    /** The folder screenshots go to ({@code target/screenshots/}). */
    Path screenshots() {
        return screenshots;
    }

    @Override
    public void close() throws IOException {
        try {
            if (driver != null) {
                driver.quit();
            }
        } finally {
            for (Dashboard d : dashboards) {
                d.close();
            }
            deleteTree(profile);
        }
    }

    /** Headless Chromium as STACK.md sets it up: explicit binary and driver, a throwaway profile. */
    private static WebDriver chromium(Path profile) {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toString());
        o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--disable-quic", "--user-data-dir=" + profile, "--window-size=1280,1000");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        o.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService svc = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        WebDriver driver = new ChromeDriver(svc, o);
        driver.manage().window().setSize(new Dimension(1280, 1000));
        return driver;
    }

    /** No element was made from job values, and no script ran. */
    static void assertNoInjectedMarkup(WebDriver driver, JavascriptExecutor js) {
        assertThat(driver.findElements(By.tagName("img"))).isEmpty();
        assertThat(driver.findElements(By.cssSelector("body script"))).isEmpty();
        assertThat(js.executeScript("return typeof window.__xss")).isEqualTo("undefined");
    }

    /**
     * Since the last check, the page logged no error (SEVERE), no script error and no
     * Content-Security-Policy violation, except the failed requests the step expects (a 404 for an
     * id that is no job, a 401 for a wrong token), given as parts of their log messages; and it
     * shows no error it caught from its own code.
     */
    static void assertCleanConsole(WebDriver driver, String page, String... expectedFailures) {
        List<String> problems = new ArrayList<>();
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            String m = e.getMessage();
            boolean expected = Stream.of(expectedFailures).anyMatch(m::contains);
            boolean bad = e.getLevel().intValue() >= Level.SEVERE.intValue()
                    || m.contains("Content Security Policy") || m.contains("Uncaught") || m.contains("TypeError");
            if (bad && !expected) {
                problems.add(e.getLevel() + " " + m);
            }
        }
        assertThat(problems).as("browser console on the %s", page).isEmpty();
        // A script error the page caught itself shows as "Unexpected error: ..." (a flash or a message).
        assertThat(driver.findElement(By.tagName("body")).getText()).as("the %s", page).doesNotContain("Unexpected error");
    }

    static void screenshot(WebDriver driver, Path file) throws IOException {
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        log.info("screenshot: {}", file);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // Chromium may still be writing into its profile while it exits: try once more.
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }
}
