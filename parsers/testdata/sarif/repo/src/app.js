const a = eval(input);
const b = "ok";
