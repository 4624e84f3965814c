/** The Spring Boot 4.0 Actuator adapters of Bullpen: the {@code bullpen} health indicator. */
package io.bullpen.spring.boot4.actuate;
