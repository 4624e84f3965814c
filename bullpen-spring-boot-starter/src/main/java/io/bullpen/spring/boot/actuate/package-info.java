/** The Spring Boot 3.5 Actuator adapters of Bullpen: the {@code bullpen} health indicator. */
package io.bullpen.spring.boot.actuate;
