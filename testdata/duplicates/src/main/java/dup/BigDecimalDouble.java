package dup;

import java.math.BigDecimal;

/** A BigDecimal made from a double literal. */
public final class BigDecimalDouble {
    private BigDecimalDouble() {
    }

    /**
     * A tenth.
     *
     * @return 0.1
     */
    public static BigDecimal tenth() {
        return new BigDecimal(0.1);
    }
}
