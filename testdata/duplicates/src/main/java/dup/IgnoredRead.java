package dup;

import java.io.IOException;
import java.io.InputStream;

/** Reads whose results are ignored. */
public final class IgnoredRead {
    private IgnoredRead() {
    }

    /**
     * Reads a header.
     *
     * @param in the stream
     * @param header where the header goes
     * @throws IOException when the stream fails
     */
    public static void header(final InputStream in, final byte[] header) throws IOException {
        in.read(header);
        in.skip(header.length);
    }
}
