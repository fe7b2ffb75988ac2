package dup;

import java.util.function.IntUnaryOperator;

/** Names that break Java's naming conventions. */
public final class Naming {
    /** A constant. */
    public static final int maxSize = 10;

    /** A static field. */
    private static int Counter;

    /** A field. */
    private int Total;

    private Naming() {
    }

    /**
     * Adds a value.
     *
     * @param Value a value
     */
    public void Add(final int Value) { final int Doubled = Value + Value; int Result = Total + Doubled; Total = Result; Counter++; }

    /**
     * A function that doubles.
     *
     * @return the function
     */
    public static IntUnaryOperator doubler() {
        return (int X) -> X + X;
    }

    /**
     * Parses a number.
     *
     * @param text a number
     * @return its value or -1
     */
    public static int parse(final String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException E) {
            return -1;
        }
    }

    /**
     * The first of a list.
     *
     * @param <element> the type of the values
     * @param values the values
     * @return the first
     */
    public static <element> element first(final java.util.List<element> values) {
        return values.get(0);
    }
}

/** A type named in lower case. */
final class lowercase { private lowercase() { } }

/**
 * A generic type whose parameter is a word.
 *
 * @param <item> the type of the value
 */
final class Box<item> {
    private final item value;

    Box(final item value) {
        this.value = value;
    }

    item get() {
        return value;
    }
}

/**
 * An interface whose type parameter is a word.
 *
 * @param <value> the type of the value
 */
interface Holder<value> {
    value get();
}
