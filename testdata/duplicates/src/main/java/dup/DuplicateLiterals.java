package dup;

import java.util.Map;

/** The same string literal written many times. */
public final class DuplicateLiterals {
    private DuplicateLiterals() {
    }

    /**
     * Fills a map with defaults.
     *
     * @param map the map
     */
    public static void defaults(final Map<String, String> map) {
        map.put("a", "unknown");
        map.put("b", "unknown");
        map.put("c", "unknown");
        map.put("d", "unknown");
    }
}
