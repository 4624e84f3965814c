package io.bullpen.dashboard;

import static io.bullpen.dashboard.Browser.TOKEN;
import static io.bullpen.dashboard.Browser.XSS;
import static io.bullpen.dashboard.Browser.assertCleanConsole;
import static io.bullpen.dashboard.Browser.assertNoInjectedMarkup;
import static io.bullpen.dashboard.Browser.screenshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.bullpen.Queue;
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
 * The search of a state by name and data path in a real headless Chromium against a real Redis:
 * one match by the value at a path, pages of matches by cursor (More, First), a number typed as a
 * number, another tab searched with the same filters, markup in names and data shown as text, and
 * Clear bringing the plain list back.
 */
@BullpenTest
class DashboardSearchBrowserIT {
    private static final By ROWS = By.cssSelector("#job-list tbody tr");

    @Test
    void searchesAStateByNameAndDataPathPageByPage(BullpenTestContext ctx) throws Exception {
        Browser.assumeAvailable();
        String q = ctx.queueName();
        Queue<Map> queue = Queue.builder(ctx.redisson(), q, Map.class).build();
        String o17 = null;
        for (int i = 0; i < 30; i++) {
            String id = queue.add("charge", Map.of("order", Map.of("id", "o-" + i, "n", i), "note", XSS)).id();
            o17 = i == 17 ? id : o17;
            queue.add("refund", Map.of("order", Map.of("id", "o-" + i, "n", i)));
        }
        String markup = queue.add(XSS, Map.of("order", Map.of("id", XSS))).id();

        Dashboard dashboard = Dashboard.builder(ctx.redisson()).port(0).token(TOKEN).build();
        try (Browser browser = Browser.open(dashboard)) {
            Path screenshots = browser.screenshots();
            WebDriver driver = browser.driver();
            WebDriverWait wait = browser.waitFor();
            JavascriptExecutor js = (JavascriptExecutor) driver;
            driver.get(dashboard.url() + "#/queues/" + q);
            wait.until(ExpectedConditions.numberOfElementsToBe(ROWS, 20));

            // One match: name and the value at a data path.
            search(driver, "charge", "/order/id", "o-17");
            wait.until(ExpectedConditions.numberOfElementsToBe(ROWS, 1));
            assertThat(driver.findElement(ROWS).getAttribute("data-job")).isEqualTo(o17);
            assertThat(driver.findElement(By.id("search-info")).getText()).contains("1 matching", "61 jobs read");
            assertThat(driver.findElement(By.id("search-more")).isEnabled()).isFalse();

            // A number typed as a number matches the number; quoted, it would be a string: none.
            search(driver, "", "/order/n", "17");
            wait.until(ExpectedConditions.numberOfElementsToBe(ROWS, 2));
            search(driver, "", "/order/n", "\"17\"");
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("search-empty")));

            // 30 charges: a page of 20, More for the 10 left, First for the first page again.
            search(driver, "charge", "", "");
            wait.until(ExpectedConditions.numberOfElementsToBe(ROWS, 20));
            List<String> first = rowIds(driver);
            WebElement more = driver.findElement(By.id("search-more"));
            assertThat(more.isEnabled()).isTrue();
            more.click();
            wait.until(ExpectedConditions.numberOfElementsToBe(ROWS, 10));
            assertThat(rowIds(driver)).doesNotContainAnyElementsOf(first);
            assertThat(driver.findElement(By.id("search-more")).isEnabled()).isFalse();
            driver.findElement(By.id("search-first")).click();
            wait.until(ExpectedConditions.numberOfElementsToBe(ROWS, 20));
            assertThat(rowIds(driver)).isEqualTo(first);
            js.executeScript("document.getElementById('job-filter-form').scrollIntoView()");
            screenshot(driver, screenshots.resolve("search.png"));

            // Markup in a job's name and data is text.
            search(driver, XSS, "/order/id", XSS);
            wait.until(ExpectedConditions.numberOfElementsToBe(ROWS, 1));
            assertThat(driver.findElement(ROWS).getAttribute("data-job")).isEqualTo(markup);
            assertThat(driver.findElement(ROWS).getText()).contains(XSS);
            assertNoInjectedMarkup(driver, js);

            // Another tab: the same search of that state (no failed job here).
            search(driver, "charge", "", "");
            wait.until(ExpectedConditions.numberOfElementsToBe(ROWS, 20));
            driver.findElement(By.cssSelector("a.tab[data-tab='failed']")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("search-empty"), "No matching failed jobs."));

            // Clear: the plain paged list again.
            driver.findElement(By.cssSelector("a.tab[data-tab='waiting']")).click();
            wait.until(ExpectedConditions.numberOfElementsToBe(ROWS, 20));
            driver.findElement(By.id("filter-clear")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("pager"), "of 61"));
            assertThat(driver.findElement(By.id("filter-name")).getAttribute("value")).isEmpty();
            assertCleanConsole(driver, "queue page with a search");
        }
    }

    private static void search(WebDriver driver, String name, String path, String value) {
        for (String[] field : new String[][] {{"filter-name", name}, {"filter-path", path}, {"filter-value", value}}) {
            WebElement input = driver.findElement(By.id(field[0]));
            input.clear();
            input.sendKeys(field[1]);
        }
        // The previous result goes first, so a wait for the new one cannot see the old one.
        ((JavascriptExecutor) driver).executeScript("document.getElementById('job-list').replaceChildren()");
        driver.findElement(By.cssSelector("#job-filter-form button[type='submit']")).click();
    }

    private static List<String> rowIds(WebDriver driver) {
        return driver.findElements(ROWS).stream().map(r -> r.getAttribute("data-job")).toList();
    }
}
