/**
 * The Lua state machine of a Bullpen queue and the catalog that loads it: an implementation detail
 * of {@code io.bullpen}, exported to it alone.
 */
module io.bullpen.lua {
    exports io.bullpen.lua to io.bullpen;
    // The scripts are resources in these folders; the catalog reads them through a class loader,
    // which sees a named module's resources only in open packages.
    opens io.bullpen.lua.scripts;
    opens io.bullpen.lua.scripts.includes;
}
