package dup;

/** A lazily made value with double-checked locking on a plain field. */
public final class DoubleChecked {
    private Object value;

    /**
     * The value, made on first use.
     *
     * @return the value
     */
    public Object value() { if (value == null) { synchronized (this) { if (value == null) { value = new Object(); } } } return value; }
}
