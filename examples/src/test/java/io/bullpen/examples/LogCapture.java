package io.bullpen.examples;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Records what one logger prints, so a test can check what an example told its reader. */
final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private LogCapture(String name) {
        logger = (Logger) LoggerFactory.getLogger(name);
        appender.start();
        logger.addAppender(appender);
    }

    static LogCapture of(Class<?> source) {
        return new LogCapture(source.getName());
    }

    /** @param name a logger name; "io.bullpen" records every example and Bullpen itself */
    static LogCapture of(String name) {
        return new LogCapture(name);
    }

    /** @return the formatted messages so far, oldest first */
    List<String> messages() {
        synchronized (appender) {
            return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}
