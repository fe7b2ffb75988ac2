package dup;

/** Bytes and text converted with the default charset. */
public final class DefaultCharset {
    private DefaultCharset() {
    }

    /**
     * The bytes of a text.
     *
     * @param text a text
     * @return its bytes
     */
    public static byte[] bytes(final String text) {
        return text.getBytes();
    }
}
