export function same(a, b) {
  return a == b;
}
