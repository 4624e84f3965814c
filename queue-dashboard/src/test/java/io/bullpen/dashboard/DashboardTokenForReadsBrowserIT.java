package io.bullpen.dashboard;

import static io.bullpen.dashboard.Browser.TOKEN;
import static io.bullpen.dashboard.Browser.WAIT;
import static io.bullpen.dashboard.Browser.assertCleanConsole;
import static io.bullpen.dashboard.Browser.screenshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.Queue;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A dashboard whose reads need the token ({@code tokenForReads}), in a real headless Chromium:
 * the page asks for the token once (a refused one again), keeps it for the tab in
 * sessionStorage, sends it in the X-Bullpen-Token header with every read, and reads the live
 * counts through a streaming fetch() with that header; the token is never in a URL or a cookie.
 */
@BullpenTest
class DashboardTokenForReadsBrowserIT {
    record Payload(String text) {
    }

    @Test
    void thePageAsksForTheTokenOnceAndShowsLiveCountsWithIt(BullpenTestContext ctx) throws Exception {
        Browser.assumeAvailable();
        String q = ctx.queueName();
        Queue<Payload> queue = Queue.builder(ctx.redisson(), q, Payload.class).build();
        queue.add("ship", new Payload("order B-1"));

        Dashboard dashboard = Dashboard.builder(ctx.redisson()).port(0).token(TOKEN).tokenForReads(true).build();
        try (Browser browser = Browser.open(dashboard)) {
            Path screenshots = browser.screenshots();
            WebDriver driver = browser.driver();
            WebDriverWait wait = browser.waitFor();
            JavascriptExecutor js = (JavascriptExecutor) driver;

            // The page loads, its first read is refused: it asks for the token.
            driver.get(dashboard.url());
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
            assertThat(driver.findElement(By.id("token-message")).getText()).contains("needs its token");
            assertThat(driver.findElements(By.cssSelector("td[data-queue='" + q + "']"))).isEmpty();

            // A wrong token is refused and asked again; the right one shows the queues.
            driver.findElement(By.id("token-input")).sendKeys("not-the-token");
            driver.findElement(By.id("token-save")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("token-message"), "refused"));
            driver.findElement(By.id("token-input")).sendKeys(TOKEN);
            driver.findElement(By.id("token-save")).click();
            waitForWaiting(driver, q, 1);
            wait.until(ExpectedConditions.textToBe(By.id("live-status"), "live"));

            // The counts change live, through the event stream read with the token header.
            js.executeScript("window.__sameDocument = 'yes';");
            queue.add("ship", new Payload("order B-2"));
            queue.add("ship", new Payload("order B-3"));
            waitForWaiting(driver, q, 3);
            assertThat(js.executeScript("return window.__sameDocument")).isEqualTo("yes");

            // Another page of the same tab: no second prompt (the token is kept for the tab).
            driver.findElement(By.linkText(q)).click();
            wait.until(ExpectedConditions.attributeToBe(By.cssSelector(".tab-count[data-queue='" + q
                    + "'][data-state='waiting']"), "data-count", "3"));
            assertThat(driver.findElement(By.id("token-dialog")).isDisplayed()).isFalse();

            // Kept in sessionStorage only: no cookie, and no request URL carries it.
            assertThat(js.executeScript("return sessionStorage.getItem('bullpen.dashboard.token')")).isEqualTo(TOKEN);
            assertThat(driver.manage().getCookies()).isEmpty();
            @SuppressWarnings("unchecked")
            List<String> urls = (List<String>) js.executeScript(
                    "return performance.getEntriesByType('resource').map(function (e) { return e.name; })");
            assertThat(urls).isNotEmpty().noneMatch(u -> u.contains(TOKEN));
            assertThat(urls).anyMatch(u -> u.endsWith("/api/queues"));
            screenshot(driver, screenshots.resolve("token-for-reads.png"));
            assertCleanConsole(driver, "dashboard whose reads need the token",
                    "/api/config - Failed to load resource: the server responded with a status of 401");

            // Forgetting the token: the next visit asks again.
            driver.findElement(By.id("forget-token")).click();
            driver.navigate().refresh();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
        }
    }

    private static void waitForWaiting(WebDriver driver, String queue, long n) {
        new WebDriverWait(driver, WAIT).withMessage(queue + " waiting should show " + n)
                .until(ExpectedConditions.attributeToBe(By.cssSelector("td[data-queue='" + queue + "'][data-state='waiting']"),
                        "data-count", String.valueOf(n)));
    }
}
