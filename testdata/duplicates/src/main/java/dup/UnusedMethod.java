package dup;

/** A private method that nothing calls. */
public final class UnusedMethod {
    private UnusedMethod() {
    }

    private static int unused(final int value) { return value + 1; }
}
