/**
 * The Lua scripts of a Bullpen queue and a pure-Java catalog of them.
 *
 * <p>Scripts live as classpath resources under {@code io/bullpen/lua/scripts/}. A
 * {@link io.bullpen.lua.ScriptCatalog} loads one by name, expands its {@code --- @include "name"}
 * directives from {@code includes/}, parses its header ({@link io.bullpen.lua.ScriptHeader}) and
 * computes the SHA-1 that Redis's {@code EVALSHA} expects ({@link io.bullpen.lua.Script}).
 */
package io.bullpen.lua;
