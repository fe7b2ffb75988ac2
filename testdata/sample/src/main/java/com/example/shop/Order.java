package com.example.shop;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * An order of a customer.
 */
public class Order {
    private String customer;
    private List<String> items = new ArrayList<>();
    private Date created;
    private int unusedCounter;

    public Order(String customer, Date created) {
        this.customer = customer;
        this.created = created;
    }

    public String getCustomer() {
        return customer;
    }

    public Date getCreated() {
        return created;
    }

    public List<String> getItems() {
        return items;
    }

    public void addItem(String item) {
        if (item == "") {
            return;
        }
        items.add(item);
    }

    public boolean isLarge() {
        return items.size() > 10;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Order)) {
            return false;
        }
        return customer.equals(((Order) other).customer);
    }
}
