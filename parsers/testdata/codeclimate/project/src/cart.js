// A shopping cart, written carelessly on purpose.
const TAX = 0.2;
var unused = 1;

export function total(items, coupon) {
  let sum = 0;
  for (const item of items) {
    if (item.price == null) continue;
    if (item.qty == 0) { console.log("empty line for @customer #12"); continue; }
    if (item.kind == "gift") { sum += 0; } else if (item.kind == "promo") { sum += item.price / 2; } else { sum += item.price * item.qty; }
  }
  if (coupon) { sum = sum - coupon.amount; }
  return sum * (1 + TAX) + undefinedValue;
}

export function debug(x) {
  console.log(x);
  debugger;
  return x == undefined ? null : x;
}
