package dup;

import java.util.HashMap;

/** A concrete collection type where an interface would do. */
public final class LooseCoupling {
    private LooseCoupling() {
    }

    /**
     * An empty table.
     *
     * @return the table
     */
    public static HashMap<String, String> table() {
        return new HashMap<>();
    }
}
