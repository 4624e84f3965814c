package io.bullpen.dashboard;

import static io.bullpen.dashboard.Browser.XSS;
import static io.bullpen.dashboard.Browser.assertCleanConsole;
import static io.bullpen.dashboard.Browser.assertNoInjectedMarkup;
import static io.bullpen.dashboard.Browser.screenshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.Queue;
import io.bullpen.dashboard.DashboardBrowserIT.Payload;
import io.bullpen.internal.Futures;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.WorkerScripts;
import io.bullpen.internal.WorkerScripts.Beat;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Live workers in a real headless Chromium against a real Redis: "no workers" on the overview
 * and the queue page of a queue with waiting jobs and no heartbeat, the Workers card with a
 * worker whose name carries markup (shown as text), and the badge gone once a worker is live.
 */
@BullpenTest
class DashboardWorkersBrowserIT {
    @Test
    void noWorkersBadgeAndTheWorkersCard(BullpenTestContext ctx) throws Exception {
        Browser.assumeAvailable();
        String q = ctx.queueName();
        String served = q + "-served";
        Queue.builder(ctx.redisson(), q, Payload.class).build().add("ship", new Payload("1"));
        Queue.builder(ctx.redisson(), served, Payload.class).build().add("ship", new Payload("2"));
        beat(ctx, served, XSS, true);
        beat(ctx, served, "billing-1", false);

        Dashboard dashboard = Dashboard.builder(ctx.redisson()).port(0).build();
        try (Browser browser = Browser.open(dashboard)) {
            Path screenshots = browser.screenshots();
            WebDriver driver = browser.driver();
            WebDriverWait wait = browser.waitFor();
            JavascriptExecutor js = (JavascriptExecutor) driver;

            // The overview: "no workers" on the queue nobody serves, not on the served one.
            driver.get(dashboard.url());
            By lonely = By.cssSelector("tr[data-queue-row='" + q + "'] .badge-no-workers");
            wait.until(ExpectedConditions.visibilityOfElementLocated(lonely));
            assertThat(driver.findElement(lonely).getAttribute("textContent")).isEqualTo("no workers");
            assertThat(driver.findElement(By.cssSelector("tr[data-queue-row='" + served + "'] .badge-no-workers"))
                    .isDisplayed()).isFalse();
            assertCleanConsole(driver, "overview with no workers");

            // Its queue page says so too, and its Workers card is empty.
            driver.get(dashboard.url() + "#/queues/" + q);
            wait.until(ExpectedConditions.textToBe(By.id("no-workers"), "No live workers."));
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".title-line .badge-no-workers")));

            // The served queue: both workers by name, markup as text, the paused one marked.
            driver.get(dashboard.url() + "#/queues/" + served);
            By rows = By.cssSelector("#workers tbody tr");
            wait.until(ExpectedConditions.numberOfElementsToBe(rows, 2));
            WebElement billing = driver.findElement(By.cssSelector("#workers tr[data-worker='billing-1']"));
            assertThat(billing.getAttribute("data-paused")).isEqualTo("false");
            assertThat(billing.getText()).contains("billing-1", "host-1", "4242");
            assertThat(billing.findElement(By.cssSelector("td[data-count='concurrency']")).getText()).isEqualTo("3");
            assertThat(billing.findElement(By.cssSelector("td[data-count='active']")).getText()).isEqualTo("1");
            assertThat(driver.findElement(By.id("workers")).getText()).contains(XSS);
            assertThat(driver.findElements(rows).stream().map(r -> r.getAttribute("data-paused")).toList())
                    .containsExactlyInAnyOrder("true", "false");
            assertThat(driver.findElement(By.cssSelector(".title-line .badge-no-workers")).isDisplayed()).isFalse();
            assertNoInjectedMarkup(driver, js);
            screenshot(driver, screenshots.resolve("workers.png"));
            assertCleanConsole(driver, "queue page with workers");
        }
    }

    private static void beat(BullpenTestContext ctx, String queue, String name, boolean paused) {
        Futures.join(new WorkerScripts(ctx.redisson(), new KeyScheme("bp", queue))
                .heartbeat(new Beat(name, "host-1", 4242, 3, 1, paused), 600_000));
    }
}
