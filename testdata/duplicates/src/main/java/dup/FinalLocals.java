package dup;

/** Local variables that are never reassigned and not declared final. */
public final class FinalLocals {
    private FinalLocals() {
    }

    /**
     * The length of a trimmed text.
     *
     * @param text a text
     * @return its length once trimmed
     */
    public static int trimmedLength(final String text) {
        String trimmed = text.trim();
        return trimmed.length();
    }
}
