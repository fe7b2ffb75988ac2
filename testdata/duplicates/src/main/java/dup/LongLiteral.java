package dup;

/** A long literal with a lower-case l. */
public final class LongLiteral {
    /** A second, in milliseconds. */
    public static final long SECOND = 1000l;

    private LongLiteral() {
    }
}
