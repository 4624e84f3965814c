/**
 * Not API: Bullpen's implementation details, public only so that Bullpen's own modules can
 * share them. May change without notice; do not use from application code.
 */
package io.bullpen.internal;
