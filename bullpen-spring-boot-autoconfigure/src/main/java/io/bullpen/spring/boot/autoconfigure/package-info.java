/**
 * Spring Boot auto-configuration of Bullpen, shared by the Boot 3.5 and Boot 4.0 starters:
 * {@link io.bullpen.spring.boot.autoconfigure.BullpenAutoConfiguration} and its
 * {@code bullpen.*} {@link io.bullpen.spring.boot.autoconfigure.BullpenProperties}.
 */
package io.bullpen.spring.boot.autoconfigure;
