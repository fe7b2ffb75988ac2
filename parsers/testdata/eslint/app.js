var count = 0;
function check(x) {
  if (x == undefinedThing) {
    return 1;
    count++;
  }
  var unused = 2;
  return count;
}
check(1);
