package io.bullpen.dashboard;

import static io.bullpen.dashboard.Browser.TOKEN;
import static io.bullpen.dashboard.Browser.WAIT;
import static io.bullpen.dashboard.Browser.XSS;
import static io.bullpen.dashboard.Browser.assertCleanConsole;
import static io.bullpen.dashboard.Browser.assertNoInjectedMarkup;
import static io.bullpen.dashboard.Browser.screenshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobOptions;
import io.bullpen.JobTemplate;
import io.bullpen.JobState;
import io.bullpen.Queue;
import io.bullpen.Repeat;
import io.bullpen.Retention;
import io.bullpen.internal.Futures;
import io.bullpen.internal.KeyScheme;
import io.bullpen.internal.ScriptTypes.FetchArgs;
import io.bullpen.internal.ScriptTypes.Finish;
import io.bullpen.internal.Scripts;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard's page in a real headless Chromium against a real Redis: live counts on the
 * overview, the queue page, the job detail, an action with the token, and job values that look
 * like markup shown as text. Screenshots go to {@code target/screenshots/}; the browser session
 * and its checks are {@link Browser}'s.
 */
@BullpenTest
class DashboardBrowserIT {

    record Payload(String text) {
    }

    @Test
    void overviewQueuePageJobDetailAndRetryInARealBrowser(BullpenTestContext ctx) throws Exception {
        Browser.assumeAvailable();

        String q = ctx.queueName();
        Queue<Payload> queue = Queue.builder(ctx.redisson(), q, Payload.class).build();
        Worker worker = new Worker(ctx, q);
        // Jobs are taken oldest first, so each is added and finished before the next is added.
        String doomed = queue.add("charge-card", new Payload("order A-1")).id();
        worker.fail(doomed, "card declined", "java.lang.IllegalStateException: card declined\n\tat Billing.charge(Billing.java:42)");
        String evil = queue.add(XSS, new Payload(XSS)).id();
        worker.log(evil, XSS);
        worker.fail(evil, XSS, XSS + "\n\tat Evil.run(Evil.java:1)");
        String done = queue.add("ship", new Payload("order A-2")).id();
        worker.complete(done, "{\"tracking\":\"T-1\"}");
        queue.add("ship", new Payload("order A-3"));
        queue.add("ship", new Payload("order A-4"));
        queue.add("remind", new Payload("order A-5"), JobOptions.builder().delay(Duration.ofMinutes(30)).build());
        queue.add("audit", new Payload("order A-6"), JobOptions.builder().priority(3).build());
        String scheduled = q + "-scheduled";
        Queue.builder(ctx.redisson(), scheduled, Payload.class).build()
                .upsertJobScheduler("hourly", Repeat.every(Duration.ofHours(1)), JobTemplate.of("tick", new Payload("t")));

        Dashboard dashboard = Dashboard.builder(ctx.redisson()).port(0).token(TOKEN).readOnly(false).build();
        try (Browser browser = Browser.open(dashboard)) {
            Path screenshots = browser.screenshots();
            WebDriver driver = browser.driver();
            WebDriverWait wait = browser.waitFor();
            JavascriptExecutor js = (JavascriptExecutor) driver;

            // 1. The overview shows the queue's counts.
            driver.get(dashboard.url());
            Map<String, Long> expected = Map.of("waiting", 2L, "active", 0L, "delayed", 1L,
                    "prioritized", 1L, "completed", 1L, "failed", 2L);
            for (Map.Entry<String, Long> e : expected.entrySet()) {
                waitForCount(driver, q, e.getKey(), e.getValue());
            }
            assertThat(driver.findElement(countCell(q, "failed")).getText()).isEqualTo("2");
            assertThat(driver.findElement(countCell(q, "waiting")).getText()).isEqualTo("2");
            assertThat(driver.findElement(By.cssSelector(".badge-paused[data-queue='" + q + "']")).isDisplayed()).isFalse();
            wait.until(ExpectedConditions.textToBe(By.id("live-status"), "live"));

            // 2. Counts change live: no reload (a marker set on the window survives).
            js.executeScript("window.__sameDocument = 'yes';");
            queue.add("ship", new Payload("order A-7"));
            queue.add("ship", new Payload("order A-8"));
            queue.add("ship", new Payload("order A-9"));
            queue.pause();
            waitForCount(driver, q, "waiting", 5);
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".badge-paused[data-queue='" + q + "']")));
            assertThat(js.executeScript("return window.__sameDocument")).isEqualTo("yes");
            assertThat(driver.findElement(countCell(q, "waiting")).getText()).isEqualTo("5");
            queue.resume();
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector(".badge-paused[data-queue='" + q + "']")));
            screenshot(driver, screenshots.resolve("overview.png"));
            assertCleanConsole(driver, "overview");

            // The queue page, from the overview's link: failed tab, chart, search.
            driver.findElement(By.linkText(q)).click();
            wait.until(ExpectedConditions.attributeToBe(tabCount(q, "failed"), "data-count", "2"));
            driver.findElement(By.cssSelector("a.tab[data-tab='delayed']")).click();
            wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".jobs-table[data-state='delayed'] tbody tr"), 1));
            assertThat(driver.findElements(By.cssSelector(".jobs-table[data-state='delayed'] button[data-action='promote']"))).hasSize(1);
            driver.findElement(By.cssSelector("a.tab[data-tab='completed']")).click();
            wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".jobs-table[data-state='completed'] tbody tr"), 1));
            assertThat(driver.findElement(By.cssSelector(".jobs-table[data-state='completed'] tbody tr")).getAttribute("data-job"))
                    .isEqualTo(done);
            driver.findElement(By.cssSelector("a.tab[data-tab='failed']")).click();
            wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector(".jobs-table[data-state='failed'] tbody tr"), 2));
            List<String> ids = driver.findElements(By.cssSelector(".jobs-table[data-state='failed'] tbody tr")).stream()
                    .map(row -> row.getAttribute("data-job")).toList();
            assertThat(ids).containsExactly(evil, doomed);   // newest first
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#metrics svg.chart rect.bar-completed")));
            assertThat(driver.findElement(By.cssSelector(".jobs-table[data-state='failed']")).getText()).contains(XSS);
            assertNoInjectedMarkup(driver, js);
            queue.add("ship", new Payload("order A-10"));      // this page's counts are live too
            wait.until(ExpectedConditions.attributeToBe(tabCount(q, "waiting"), "data-count", "6"));
            WebElement search = driver.findElement(By.id("job-search"));
            search.sendKeys("no-such-job", Keys.ENTER);
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("search-message"), "no job with id no-such-job"));
            screenshot(driver, screenshots.resolve("queue.png"));
            assertCleanConsole(driver, "queue page", "/api/queues/" + q + "/jobs/no-such-job - Failed to load resource: "
                    + "the server responded with a status of 404");

            // 4. Markup in the name, data and failed reason renders as text.
            driver.findElement(By.cssSelector("a[href='#/queues/" + q + "/jobs/" + evil + "']")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("job-failed-reason")));
            assertThat(driver.findElement(By.id("job-name")).getText()).isEqualTo(XSS);
            assertThat(driver.findElement(By.id("job-failed-reason")).getText()).isEqualTo(XSS);
            assertThat(js.executeScript("return JSON.parse(document.getElementById('job-data').textContent).text"))
                    .isEqualTo(XSS);
            assertThat(driver.findElement(By.id("job-data")).getText()).contains("<script>window.__xss=1</script>", "<img src=x onerror=");
            assertThat(driver.findElement(By.id("job-logs")).getText()).isEqualTo(XSS);
            assertThat(driver.findElement(By.tagName("body")).getText()).contains(XSS);
            assertNoInjectedMarkup(driver, js);
            screenshot(driver, screenshots.resolve("job-detail.png"));
            assertCleanConsole(driver, "job detail");

            // 3. Retry a failed job from its page, entering the token (a wrong one first: asked again).
            driver.findElement(By.cssSelector("a[href='#/queues/" + q + "']")).click();
            search = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("job-search")));
            search.sendKeys(doomed, Keys.ENTER);
            WebElement retry = wait.until(ExpectedConditions.elementToBeClickable(
                    By.cssSelector("#job-actions button[data-action='retry']")));
            assertThat(driver.findElement(By.id("job-name")).getText()).isEqualTo("charge-card");
            retry.click();
            WebElement token = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
            token.sendKeys("not-the-token");
            driver.findElement(By.id("token-save")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("token-message"), "refused"));
            assertThat(queue.getState(doomed)).isEqualTo(JobState.FAILED);
            driver.findElement(By.id("token-input")).sendKeys(TOKEN);
            driver.findElement(By.id("token-save")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("flash"), "Job " + doomed + " moved to waiting"));
            new WebDriverWait(driver, WAIT).until(d -> queue.getState(doomed) == JobState.WAITING);
            // The page redraws the job when its reload or a live count brings a change: look again then.
            new WebDriverWait(driver, WAIT).ignoring(StaleElementReferenceException.class)
                    .until(d -> d.findElement(By.cssSelector(".title-line .badge")).getText().toLowerCase(Locale.ROOT)
                            .equals("waiting"));
            assertThat(js.executeScript("return sessionStorage.getItem('bullpen.dashboard.token')")).isEqualTo(TOKEN);
            assertThat(driver.findElements(By.cssSelector("#job-actions button[data-action='retry']"))).isEmpty();
            screenshot(driver, screenshots.resolve("job-detail-after-retry.png"));

            assertCleanConsole(driver, "job detail after retry", "/api/queues/" + q + "/jobs/" + doomed
                    + "/retry - Failed to load resource: the server responded with a status of 401");
            assertThat(queue.getJobCounts().failed()).isEqualTo(1);

            // Read-only: the same pages without any action.
            Dashboard readOnly = browser.start(Dashboard.builder(ctx.redisson()).port(0).token(TOKEN).readOnly(true).build());
            driver.get(readOnly.url() + "#/queues/" + q + "/jobs/" + evil);
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("job-failed-reason")));
            wait.until(ExpectedConditions.attributeToBe(By.id("mode-badge"), "textContent", "read-only"));
            assertThat(driver.findElements(By.cssSelector("#job-actions, button[data-action]"))).isEmpty();
            assertNoInjectedMarkup(driver, js);
            assertCleanConsole(driver, "read-only job detail");

            // A queue with a job scheduler (its card), then a route that is no page.
            driver.get(readOnly.url() + "#/queues/" + scheduled);
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#schedulers tr[data-scheduler='hourly']")));
            assertThat(driver.findElement(By.cssSelector("#schedulers tr[data-scheduler='hourly']")).getText())
                    .contains("hourly", "tick", "every 1 h");
            assertThat(driver.findElements(By.cssSelector("#queue-actions button, button[data-action]"))).isEmpty();
            assertCleanConsole(driver, "read-only queue page with a scheduler");
            driver.get(readOnly.url() + "#/no/such/page");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("app"), "There is no page here."));
            assertCleanConsole(driver, "not-found page");
        }
    }

    private static By countCell(String queue, String state) {
        return By.cssSelector("td[data-queue='" + queue + "'][data-state='" + state + "']");
    }

    private static By tabCount(String queue, String state) {
        return By.cssSelector(".tab-count[data-queue='" + queue + "'][data-state='" + state + "']");
    }

    private static void waitForCount(WebDriver driver, String queue, String state, long n) {
        new WebDriverWait(driver, WAIT).withMessage(queue + " " + state + " should show " + n)
                .until(ExpectedConditions.attributeToBe(countCell(queue, state), "data-count", String.valueOf(n)));
    }

    /** Finishes jobs with the scripts a worker uses (this module has no worker dependency). */
    private static final class Worker {
        private static final FetchArgs TAKE = new FetchArgs(1, "w", 30_000, "browser-it", 100, 100, 1);
        private final Scripts scripts;

        Worker(BullpenTestContext ctx, String queue) {
            this.scripts = new Scripts(ctx.redisson(), new KeyScheme("bp", queue));
        }

        void fail(String expectedId, String reason, String stacktrace) {
            finish(expectedId, false, reason, stacktrace);
        }

        void complete(String expectedId, String returnJson) {
            finish(expectedId, true, returnJson, null);
        }

        void log(String id, String line) {
            Futures.join(scripts.addLog(id, line, -1));
        }

        private void finish(String expectedId, boolean completed, String value, String stacktrace) {
            var taken = Futures.join(scripts.moveToActive(System.currentTimeMillis(), TAKE)).jobs();
            assertThat(taken).hasSize(1);
            assertThat(taken.get(0).id()).isEqualTo(expectedId);
            Futures.join(scripts.moveToFinished(System.currentTimeMillis(), TAKE.withCount(0),
                    completed
                            ? new Finish.Completed(expectedId, taken.get(0).lockToken(), 1, value, Retention.keepAll(),
                                    null, null, null, 0)
                            : new Finish.Failed(expectedId, taken.get(0).lockToken(), 1, value, stacktrace, 10,
                                    Retention.keepAll(), null, null, null, 0)));
        }
    }
}
