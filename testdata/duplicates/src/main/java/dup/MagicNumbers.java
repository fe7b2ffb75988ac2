package dup;

/** A number in a condition that should be a named constant. */
public final class MagicNumbers {
    private MagicNumbers() {
    }

    /**
     * Whether a quantity makes a bulk order.
     *
     * @param quantity a quantity
     * @return true when it does
     */
    public static boolean bulk(final int quantity) {
        boolean bulk = false;
        if (quantity > 144) {
            bulk = true;
        }
        return bulk;
    }
}
