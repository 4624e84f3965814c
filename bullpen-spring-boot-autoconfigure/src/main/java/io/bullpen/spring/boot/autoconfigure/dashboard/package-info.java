/**
 * The dashboard under the application's servlet web server ({@code bullpen.dashboard.path}): the
 * auto-configuration, the management-context configuration, and the servlet that adapts requests
 * to the dashboard's handler.
 */
package io.bullpen.spring.boot.autoconfigure.dashboard;
