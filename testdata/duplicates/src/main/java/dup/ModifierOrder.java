package dup;

/** Modifiers not in the order the language specification recommends. */
public final class ModifierOrder {
    /** The largest size. */
    static public final int MAX = 10;

    private ModifierOrder() {
    }
}
