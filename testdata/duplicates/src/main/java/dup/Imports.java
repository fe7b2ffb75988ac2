package dup;

import java.lang.String;
import java.util.List;
import java.util.Map;

/** Imports that can be removed. */
public final class Imports {
    private Imports() {
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
