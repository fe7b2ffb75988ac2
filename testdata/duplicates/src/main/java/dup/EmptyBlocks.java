package dup;

/** A control statement with an empty body. */
public final class EmptyBlocks {
    private EmptyBlocks() {
    }

    /**
     * Waits until the flag is set.
     *
     * @param flag the flag
     */
    public static void await(final java.util.concurrent.atomic.AtomicBoolean flag) {
        while (!flag.get()) {
        }
    }
}
