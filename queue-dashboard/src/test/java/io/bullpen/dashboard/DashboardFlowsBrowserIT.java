package io.bullpen.dashboard;

import static io.bullpen.dashboard.Browser.TOKEN;
import static io.bullpen.dashboard.Browser.assertCleanConsole;
import static io.bullpen.dashboard.Browser.assertNoInjectedMarkup;
import static io.bullpen.dashboard.Browser.screenshot;
import static io.bullpen.dashboard.FlowsApiTest.MARKUP;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.JobOptions;
import io.bullpen.dashboard.FlowsApiTest.Flow;
import io.bullpen.flow.FlowJob;
import io.bullpen.flow.FlowProducer;
import io.bullpen.testing.BullpenTest;
import io.bullpen.testing.BullpenTestContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Flows in a real headless Chromium against a real Redis: the waiting-children count on the
 * overview and the queue page's tab, a waiting parent's page with what it still waits for and its
 * children (states, names shown as text, links), a child's link to the child in its own queue and
 * its parent link back, the last child ending live, and a large parent's children a page at a
 * time ("Load more").
 */
@BullpenTest
class DashboardFlowsBrowserIT {
    @Test
    void aParentsChildrenAndWhatItWaitsForWithLinksBothWays(BullpenTestContext ctx) throws Exception {
        Browser.assumeAvailable();
        Flow f = FlowsApiTest.addFlow(ctx);
        FlowJob.Builder digest = FlowJob.builder(f.reports(), "digest", Map.of("week", 48))
                .options(JobOptions.builder().jobId("digest").build());
        for (int i = 1; i <= 25; i++) {       // more children than a page shows (20)
            digest.child(FlowJob.builder(f.images(), "thumbnail", Map.of("image", i))
                    .options(JobOptions.builder().jobId(String.format("thumb-%02d", i)).build()).build());
        }
        FlowProducer.builder(ctx.redisson()).build().add(digest.build());

        Dashboard dashboard = Dashboard.builder(ctx.redisson()).port(0).token(TOKEN).build();
        try (Browser browser = Browser.open(dashboard)) {
            Path screenshots = browser.screenshots();
            WebDriver driver = browser.driver();
            WebDriverWait wait = browser.waitFor();
            // The job page re-renders its lists on live count changes: a row found just before is
            // then stale, and the wait looks again.
            wait.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
            JavascriptExecutor js = (JavascriptExecutor) driver;

            // The overview counts the parents waiting for their children.
            driver.get(dashboard.url());
            wait.until(ExpectedConditions.attributeToBe(
                    By.cssSelector("td[data-queue='" + f.reports() + "'][data-state='waiting-children']"), "data-count", "2"));
            wait.until(ExpectedConditions.attributeToBe(By.cssSelector("[data-total='waiting-children']"), "data-count", "2"));
            assertCleanConsole(driver, "overview with waiting parents");

            // The queue page's waiting-children tab: its count, then its list.
            driver.get(dashboard.url() + "#/queues/" + f.reports());
            By tabCount = By.cssSelector(".tab-count[data-queue='" + f.reports() + "'][data-state='waiting-children']");
            wait.until(ExpectedConditions.attributeToBe(tabCount, "data-count", "2"));
            assertThat(driver.findElement(tabCount).getText()).isEqualTo("2");
            driver.findElement(By.cssSelector("a.tab[data-tab='waiting-children']")).click();
            By rows = By.cssSelector(".jobs-table[data-state='waiting-children'] tbody tr");
            wait.until(ExpectedConditions.numberOfElementsToBe(rows, 2));
            assertThat(driver.findElements(rows)).extracting(r -> r.getAttribute("data-job"))
                    .containsExactlyInAnyOrder("report-7", "digest");
            assertCleanConsole(driver, "waiting-children tab");

            // The parent's page: what it still waits for, and its children with state, name and link.
            driver.findElement(By.cssSelector("a[href='#/queues/" + f.reports() + "/jobs/report-7']")).click();
            By waitingFor = By.cssSelector("#job-waiting-for tbody tr");
            wait.until(ExpectedConditions.numberOfElementsToBe(waitingFor, 1));
            assertThat(driver.findElement(waitingFor).getAttribute("data-child")).isEqualTo(f.images() + ":img-1");
            By children = By.cssSelector("#job-children tbody tr");
            wait.until(ExpectedConditions.numberOfElementsToBe(children, 3));
            assertThat(driver.findElement(By.cssSelector(".title-line .badge")).getText()).isEqualToIgnoringCase("waiting-children");
            assertThat(driver.findElements(children)).extracting(r -> r.getAttribute("data-child") + " " + r.getAttribute("data-state"))
                    .containsExactly(f.pages() + ":page-1 completed", f.pages() + ":page-2 failed", f.images() + ":img-1 waiting");
            WebElement failed = driver.findElement(childRow(f.pages() + ":page-2"));
            assertThat(failed.getText()).contains(MARKUP, MARKUP + " out of ink");
            assertThat(driver.findElement(childRow(f.pages() + ":page-1")).getText()).contains("render", "\"<b>page 1</b>\"");
            assertThat(driver.findElement(By.id("job-children")).getText()).contains("3 in all");
            assertThat(driver.findElements(By.id("job-parents"))).isEmpty();
            assertThat(driver.findElement(By.id("children-more")).isDisplayed()).isFalse();
            assertThat(driver.findElements(By.cssSelector("#job-actions button[data-action='cancel']"))).hasSize(1);
            assertNoInjectedMarkup(driver, js);
            screenshot(driver, screenshots.resolve("flow-parent.png"));
            assertCleanConsole(driver, "waiting parent");

            // A child's link opens the child in its own queue; its parent link leads back.
            failed.findElement(By.cssSelector("a.child-link")).click();
            wait.until(ExpectedConditions.textToBe(By.id("job-id"), "page-2"));
            assertThat(driver.getCurrentUrl()).endsWith("#/queues/" + f.pages() + "/jobs/page-2");
            assertThat(driver.findElement(By.id("job-name")).getText()).isEqualTo(MARKUP);
            By parentLink = By.cssSelector("#job-parents a[data-parent='" + f.reports() + ":report-7']");
            wait.until(ExpectedConditions.presenceOfElementLocated(parentLink));
            assertThat(driver.findElement(parentLink).getText()).isEqualTo(f.reports() + " / report-7");
            assertThat(driver.findElements(By.cssSelector("#job-children"))).allMatch(c -> !c.isDisplayed());
            assertNoInjectedMarkup(driver, js);
            screenshot(driver, screenshots.resolve("flow-child.png"));
            driver.findElement(parentLink).click();
            wait.until(ExpectedConditions.textToBe(By.id("job-id"), "report-7"));
            wait.until(ExpectedConditions.numberOfElementsToBe(children, 3));
            assertCleanConsole(driver, "child and back to its parent");

            // Live: the last child ends in its own queue (the parent's page shows it at once, and
            // says its end is on its way), then its end reaches the parent, which moves on.
            TestJobs images = new TestJobs(ctx.redisson(), f.images());
            TestJobs.Taken lastChild = images.take();
            assertThat(lastChild.id()).isEqualTo("img-1");
            images.complete(lastChild, "\"thumb.png\"");
            wait.until(ExpectedConditions.attributeToBe(childRow(f.images() + ":img-1"), "data-state", "completed"));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("waiting-for-none")));
            images.relayChildEnds();
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("job-waiting-for")));
            wait.until(d -> d.findElement(By.cssSelector(".title-line .badge")).getText().equalsIgnoreCase("waiting"));
            wait.until(ExpectedConditions.attributeToBe(childRow(f.images() + ":img-1"), "data-state", "completed"));
            assertCleanConsole(driver, "a parent whose last child ended");

            // A parent with more children than a page: Load more brings the rest.
            driver.get(dashboard.url() + "#/queues/" + f.reports() + "/jobs/digest");
            wait.until(ExpectedConditions.numberOfElementsToBe(children, 20));
            assertThat(driver.findElement(By.id("job-children")).getText()).contains("25 in all");
            WebElement more = driver.findElement(By.id("children-more"));
            assertThat(more.isDisplayed()).isTrue();
            more.click();
            wait.until(ExpectedConditions.numberOfElementsToBe(children, 25));
            List<String> last = driver.findElements(children).stream().skip(19).map(r -> r.getAttribute("data-child")).toList();
            assertThat(last).containsExactly(f.images() + ":thumb-20", f.images() + ":thumb-21", f.images() + ":thumb-22",
                    f.images() + ":thumb-23", f.images() + ":thumb-24", f.images() + ":thumb-25");
            wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("children-more")));
            wait.until(ExpectedConditions.numberOfElementsToBe(waitingFor, 20));
            driver.findElement(By.id("waiting-for-more")).click();
            wait.until(ExpectedConditions.numberOfElementsToBe(waitingFor, 25));
            screenshot(driver, screenshots.resolve("flow-many-children.png"));
            assertCleanConsole(driver, "a parent's children page by page");
        }
    }

    private static By childRow(String child) {
        return By.cssSelector("#job-children tr[data-child='" + child + "']");
    }
}
