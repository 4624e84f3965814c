package io.bullpen.dashboard;

import static io.bullpen.dashboard.Browser.TOKEN;
import static io.bullpen.dashboard.Browser.XSS;
import static io.bullpen.dashboard.Browser.assertCleanConsole;
import static io.bullpen.dashboard.Browser.assertNoInjectedMarkup;
import static io.bullpen.dashboard.Browser.screenshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.GroupInfo;
import io.bullpen.JobOptions;
import io.bullpen.Queue;
import io.bullpen.RateLimit;
import io.bullpen.dashboard.DashboardBrowserIT.Payload;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Flow control in a real headless Chromium against a real Redis: a queue's limits on the
 * overview and its page, its groups page by page (markup in a group name shown as text), pausing
 * a group with the token, a queue without groups, and read-only mode without the buttons.
 * Needs queue-core's limits and groups.
 */
@BullpenTest
class DashboardGroupsBrowserIT {
    @Test
    void limitsAndGroupsOnTheQueuePageAndPausingAGroupWithTheToken(BullpenTestContext ctx) throws Exception {
        Browser.assumeAvailable();
        String q = ctx.queueName();
        Queue<Payload> queue = Queue.builder(ctx.redisson(), q, Payload.class).build();
        for (String group : List.of("tenant-a", "tenant-a", "tenant-b", XSS)) {
            queue.add("export", new Payload(group), JobOptions.builder().group(group).build());
        }
        queue.setRateLimit(RateLimit.of(100, Duration.ofSeconds(1)).burst(20));
        queue.setGlobalConcurrency(5);
        queue.setDefaultGroupConcurrency(2);
        queue.setGroupConcurrency("tenant-a", 1);
        String plain = q + "-plain";
        Queue.builder(ctx.redisson(), plain, Payload.class).build().add("ship", new Payload("no group"));
        String many = q + "-many";       // one group more than a page holds
        Queue<Payload> manyQueue = Queue.builder(ctx.redisson(), many, Payload.class).build();
        for (int i = 0; i <= 50; i++) {
            manyQueue.add("export", new Payload("t"), JobOptions.builder().group(String.format("t-%02d", i)).build());
        }

        Dashboard dashboard = Dashboard.builder(ctx.redisson()).port(0).token(TOKEN).readOnly(false).build();
        Dashboard readOnly = Dashboard.builder(ctx.redisson()).port(0).token(TOKEN).readOnly(true).build();
        try (Browser browser = Browser.open(dashboard, readOnly)) {
            Path screenshots = browser.screenshots();
            WebDriver driver = browser.driver();
            WebDriverWait wait = browser.waitFor();
            JavascriptExecutor js = (JavascriptExecutor) driver;

            // The overview's Limits column, compact.
            driver.get(dashboard.url());
            By limitsCell = By.cssSelector("td[data-limits='" + q + "']");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(limitsCell, "100 per s (burst 20)"));
            assertThat(driver.findElement(limitsCell).getText()).contains("0 / 5 active", "2 active per group");
            assertThat(driver.findElement(By.cssSelector("td[data-limits='" + plain + "']")).getText()).isEqualTo("none");
            assertCleanConsole(driver, "overview with limits");

            // The queue page: its limits, and its groups in name order with counts and settings.
            driver.get(dashboard.url() + "#/queues/" + q);
            By groupRows = By.cssSelector("#groups tbody tr");
            wait.until(ExpectedConditions.numberOfElementsToBe(groupRows, 3));
            List<String> groups = driver.findElements(groupRows).stream().map(r -> r.getAttribute("data-group")).toList();
            assertThat(groups).containsExactly(XSS, "tenant-a", "tenant-b");       // by name: '<' sorts first
            WebElement a = driver.findElement(groupRow("tenant-a"));
            assertThat(a.findElement(By.cssSelector("td[data-count='waiting']")).getText()).isEqualTo("2");
            assertThat(a.findElement(By.cssSelector("td[data-count='active']")).getText()).isEqualTo("0");
            assertThat(a.getText()).contains("default", "none");     // own concurrency 1, default rate limit, no max size
            assertThat(driver.findElement(By.cssSelector("#limits dd[data-limit='rateLimit']")).getText())
                    .isEqualTo("100 per s (burst 20)");
            assertThat(driver.findElement(By.cssSelector("#limits dd[data-limit='globalConcurrency']")).getText())
                    .isEqualTo("0 active of 5");
            assertThat(driver.findElement(By.cssSelector("#limits dd[data-limit='defaultGroupConcurrency']")).getText())
                    .isEqualTo("2 active per group");
            assertThat(driver.findElement(By.cssSelector("#limits dd[data-limit='defaultGroupRateLimit']")).getText())
                    .isEqualTo("none");
            assertThat(driver.findElement(By.id("groups")).getText()).contains(XSS);
            assertNoInjectedMarkup(driver, js);

            // Pause tenant-b with the token: the row shows it paused, with Resume.
            driver.findElement(By.cssSelector("#groups tr[data-group='tenant-b'] button[data-action='pause']")).click();
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input"))).sendKeys(TOKEN);
            driver.findElement(By.id("token-save")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("flash"), "Paused group tenant-b"));
            wait.until(ExpectedConditions.attributeToBe(groupRow("tenant-b"), "data-paused", "true"));
            assertThat(queue.getGroup("tenant-b").map(GroupInfo::paused)).contains(true);
            WebElement b = driver.findElement(groupRow("tenant-b"));
            assertThat(b.findElement(By.cssSelector(".badge-paused")).isDisplayed()).isTrue();
            assertThat(b.findElements(By.cssSelector("button[data-action='resume']"))).hasSize(1);
            assertThat(driver.findElement(groupRow("tenant-a")).findElement(By.cssSelector(".badge-paused")).isDisplayed()).isFalse();
            screenshot(driver, screenshots.resolve("groups.png"));
            assertCleanConsole(driver, "queue page with groups");

            // Groups a page at a time: Next shows the one left, Previous the first page again.
            driver.get(dashboard.url() + "#/queues/" + many);
            wait.until(ExpectedConditions.numberOfElementsToBe(groupRows, 50));
            assertThat(driver.findElement(By.id("groups-prev")).isEnabled()).isFalse();
            driver.findElement(By.id("groups-next")).click();
            wait.until(ExpectedConditions.numberOfElementsToBe(groupRows, 1));
            assertThat(driver.findElement(groupRows).getAttribute("data-group")).isEqualTo("t-50");
            assertThat(driver.findElement(By.id("groups-next")).isEnabled()).isFalse();
            driver.findElement(By.id("groups-prev")).click();
            wait.until(ExpectedConditions.numberOfElementsToBe(groupRows, 50));
            assertThat(driver.findElements(groupRows).get(0).getAttribute("data-group")).isEqualTo("t-00");
            assertCleanConsole(driver, "groups page by page");

            // A queue without groups says so in a line; read-only shows the groups without buttons.
            driver.get(dashboard.url() + "#/queues/" + plain);
            wait.until(ExpectedConditions.textToBe(By.id("no-groups"), "No groups."));
            assertThat(driver.findElements(By.cssSelector("#groups table"))).isEmpty();
            driver.get(readOnly.url() + "#/queues/" + q);
            wait.until(ExpectedConditions.numberOfElementsToBe(groupRows, 3));
            wait.until(ExpectedConditions.attributeToBe(By.id("mode-badge"), "textContent", "read-only"));
            assertThat(driver.findElements(By.cssSelector("#groups button[data-action]"))).isEmpty();
            assertCleanConsole(driver, "read-only queue page with groups");
        }
    }

    private static By groupRow(String group) {
        return By.cssSelector("#groups tr[data-group='" + group + "']");
    }
}
