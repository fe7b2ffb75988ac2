package dup;

/** A switch case that falls through to the next. */
public final class FallThrough {
    private FallThrough() {
    }

    /**
     * The price of a size.
     *
     * @param size 1 or 2
     * @return its price
     */
    public static int price(final int size) {
        int price = 0;
        switch (size) {
            case 1:
                price++;
            case 2:
                price++;
                break;
            default:
                break;
        }
        return price;
    }
}
