var total = 0;

export function add(price, unused) {
  var tax = price * 0.2;
  if (price == null) {
    return totl;
  }
  total = total + price + tax;
  return total;
}

export function run(code) {
  let result = eval(code);
  return result;
}
