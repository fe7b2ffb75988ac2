package dup;

/** Strings compared with == instead of equals(). */
public final class StringEquality {
    private final String status;

    /**
     * An order state.
     *
     * @param status the state's name
     */
    public StringEquality(final String status) {
        this.status = status;
    }

    /**
     * Whether the order is closed.
     *
     * @return true when it is
     */
    public boolean isClosed() {
        final String trimmed = status.trim();
        return trimmed == "CLOSED";
    }

    /**
     * Whether the order has the state.
     *
     * @param other a state's name
     * @return true when it has
     */
    public boolean hasStatus(final String other) {
        return status == other;
    }
}
