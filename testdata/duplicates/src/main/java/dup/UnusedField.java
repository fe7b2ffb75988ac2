package dup;

/** A private field that nothing uses. */
public final class UnusedField {
    private int neverUsed;
}
