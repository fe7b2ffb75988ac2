package com.example.shop;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes orders in the shop's database.
 */
public class OrderRepository {
    public static final int maxRows = 100;

    private final Connection connection;

    public OrderRepository(Connection connection) {
        this.connection = connection;
    }

    /**
     * The items a customer ordered, without cancelled ones.
     *
     * @param customer the customer's name as typed in the search box
     * @return at most maxRows items
     * @throws SQLException when the database fails
     */
    public List<String> itemsOf(String customer) throws SQLException {
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(
            "SELECT item, status FROM orders WHERE customer = '" + customer + "'");
        List<String> items = new ArrayList<>();
        while (rows.next()) {
            if (items.size() == maxRows) break;
            String status = rows.getString(2);
            if (status == "CANCELLED") {
                continue;
            }
            items.add(rows.getString(1));
        }
        return items;
    }

    public void cancel(long id) {
        try {
            Statement statement = connection.createStatement();
            statement.executeUpdate("UPDATE orders SET status = 'CANCELLED' WHERE id = " + id);
            statement.close();
        } catch (SQLException e) { }
    }

    public boolean isOpen(String status) {
        String normalized = status.trim().toUpperCase();
        if ("OPEN".equals(normalized)) {
            return true;
        } else {
            return false;
        }
    }
}
