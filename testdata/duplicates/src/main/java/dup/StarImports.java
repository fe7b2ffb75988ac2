package dup;

import java.util.*;

/** An import on demand. */
public final class StarImports {
    private StarImports() {
    }

    /**
     * The size of a list.
     *
     * @param items a list
     * @return its size
     */
    public static int size(final List<String> items) {
        return items.size();
    }
}
