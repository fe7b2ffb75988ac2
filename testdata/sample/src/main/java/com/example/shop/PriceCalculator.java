package com.example.shop;

/**
 * Computes prices.
 */
public final class PriceCalculator {
    private PriceCalculator() {
    }

    /**
     * Price with tax.
     *
     * @param net the net price in cents
     * @return the gross price in cents
     */
    public static long gross(long net) {
        return net * 119 / 100;
    }

    /**
     * Discount for a number of items.
     *
     * @param count number of items
     * @return the discount in percent
     */
    public static int discount(int count) {
        switch (count) {
            case 0:
                return 0;
            case 1:
                return 5;
            default:
                return 10;
        }
    }

    public static double average(long[] prices) {
        long sum = 0;
        for (int i = 0; i < prices.length; i++) sum += prices[i];
        return sum / prices.length;
    }
}
