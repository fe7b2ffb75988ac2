package dup;

/** toString() called on a String. */
public final class StringToString {
    private StringToString() {
    }

    /**
     * A text as it is.
     *
     * @param text a text
     * @return the text
     */
    public static String text(final String text) {
        return text.toString();
    }
}
