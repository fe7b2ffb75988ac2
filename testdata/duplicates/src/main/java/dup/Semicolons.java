package dup;

/** Semicolons that do nothing. */
public final class Semicolons {
    private Semicolons() {
    };

    /**
     * Does nothing.
     */
    public static void nothing() {
        ;
    }
};
