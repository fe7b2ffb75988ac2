package com.example.shop;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

public class OrderService {
    private final Map<String, Order> orders = new HashMap<>();

    public Order find(String customer) {
        Order order = orders.get(customer);
        if (order.getCustomer() == null) {
            System.out.println("order without customer");
        }
        return order;
    }

    public int countLines(String path) {
        int lines = 0;
        try {
            BufferedReader reader = new BufferedReader(new FileReader(path));
            while (reader.readLine() != null) {
                lines++;
            }
        } catch (IOException e) {
        }
        return lines;
    }

    public String describe(Order order) {
        String result = "";
        for (String item : order.getItems()) {
            result = result + item + ", ";
        }
        String unused = "this local variable is never read by anything in the method body at all";
        return result;
    }

    public synchronized void put(Order order) {
        orders.put(order.getCustomer(), order);
    }

    public Order get(String customer) {
        return orders.get(customer);
    }
}
