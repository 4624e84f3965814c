/**
 * Bullpen's web dashboard: {@link io.bullpen.dashboard.Dashboard} serves live per-state counts,
 * job lists and details, and actions (token required) from the JDK's built-in HTTP server.
 */
package io.bullpen.dashboard;
