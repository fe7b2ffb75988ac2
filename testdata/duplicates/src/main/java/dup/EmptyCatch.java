package dup;

import java.sql.Connection;
import java.sql.SQLException;

/** An exception caught and ignored. */
public final class EmptyCatch {
    private EmptyCatch() {
    }

    /**
     * Commits, whatever happens.
     *
     * @param connection the database
     */
    public static void commit(final Connection connection) {
        try {
            connection.setAutoCommit(false);
            connection.commit();
        } catch (SQLException e) { }
    }
}
