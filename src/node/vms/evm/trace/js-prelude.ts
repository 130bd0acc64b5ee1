/**
 * The code a JavaScript tracer's sandbox runs before the tracer's own: geth's globals (`bigInt`,
 * `toHex`, `toWord`, `toAddress`, `toContract`, `toContract2`, `isPrecompiled`, `slice`) and the
 * `log`, `db`, frame and frame-result objects handed to the tracer's functions, all made in the
 * sandbox's own realm. Everything they know comes from one host function, `host(op, …)`, which
 * takes and returns only strings, numbers and booleans: no object of the node's realm ever
 * reaches the tracer's code (through one, `constructor.constructor` would be the node's
 * `Function`, and with it `process`).
 *
 * The prelude is a function expression: called with `host`, it defines the globals and
 * `__flurryInit(evaluate)` / `__flurryCall()`, the entries the node runs under the tracer's
 * timeout. Both answer with a string: `''` (done), `'R' + JSON` (a result) or `'E' + message`.
 *
 * geth stops a tracer's run on a bad argument to its helpers (`vm.Interrupt`), which the
 * tracer's code cannot catch; here the helper throws and tells the host first, and the host
 * ends the call with that error whether or not the tracer caught it.
 */
/** What the tracer's code follows on its first line: the function the prelude's init evaluates. */
export const EVALUATE_PREFIX = '__flurryInit(function () { return (0, ';

export const PRELUDE = String.raw`(function (host) {
  'use strict';
  var G = globalThis;
  var DIGITS = '0123456789abcdef';
  /* Taken before the tracer's code runs, which may replace the globals. */
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  /* geth evaluates '(' + code: first-line columns count from there (the comma makes V8 place an
     error at the expression that failed, not at the return). */
  var SHIFT = ${EVALUATE_PREFIX.length - 1};

  /* Where the tracer's code was when it failed, as "fn (<eval>:line:col)". */
  function whereIn(stack) {
    var lines = String(stack || '').split('\n');
    for (var i = 0; i < lines.length; i++) {
      var m = /^\s*at (?:(.*?) \()?<eval>:(\d+):(\d+)\)?$/.exec(lines[i]);
      if (!m) continue;
      var col = m[2] === '1' ? Number(m[3]) - SHIFT : Number(m[3]);
      var place = '<eval>:' + m[2] + ':' + col;
      return m[1] ? m[1].replace(/^Object\./, '') + ' (' + place + ')' : place;
    }
    return '';
  }
  function interrupt(message) {
    var at = whereIn(new Error().stack);
    var text = at ? message + ' at ' + at : message;
    host('fail', text);
    throw new Error(text);
  }
  function describe(e) {
    try {
      var text = String(e);
      var at = e instanceof Error ? whereIn(e.stack) : '';
      return at ? text + ' at ' + at : text;
    } catch (inner) {
      return 'tracer error';
    }
  }
  function int(v) {
    var n = Math.trunc(Number(v));
    return n === n ? n : 0;
  }

  function hexOf(bytes) {
    var s = '0x';
    for (var i = 0; i < bytes.length; i++) s += DIGITS[bytes[i] >> 4] + DIGITS[bytes[i] & 15];
    return s;
  }
  /* Bytes from the host's hex (always whole bytes). */
  function bytesOf(hex) {
    var out = new Uint8Array((hex.length - 2) / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 + 2 * i, 2), 16);
    return out;
  }
  /* Go's common.FromHex: an optional 0x, an odd length padded in front, stops at a bad pair. */
  function goHexBytes(text) {
    if (text.length >= 2 && text[0] === '0' && (text[1] === 'x' || text[1] === 'X')) text = text.slice(2);
    if (text.length % 2) text = '0' + text;
    var out = [];
    for (var i = 0; i < text.length; i += 2) {
      var pair = text.substr(i, 2);
      if (!/^[0-9a-fA-F]{2}$/.test(pair)) break;
      out.push(parseInt(pair, 16));
    }
    return new Uint8Array(out);
  }
  /* geth's fromBuf: a Uint8Array, an array of numbers, or (where allowed) a hex string. */
  function fromBuf(v, allowString) {
    if (typeof v === 'string' || v instanceof String) {
      if (allowString) return goHexBytes(String(v));
    } else if (Array.isArray(v)) {
      return Uint8Array.from(v, function (x) { return Number(x) & 255; });
    } else if (v instanceof Uint8Array) {
      return new Uint8Array(v);
    }
    return interrupt('invalid buffer type');
  }
  /* Go's BytesToHash / BytesToAddress: the last n bytes, zero-padded in front. */
  function lastBytes(bytes, n) {
    var out = new Uint8Array(n);
    var from = Math.max(0, bytes.length - n);
    out.set(bytes.subarray(from), n - (bytes.length - from));
    return out;
  }

  /* bigInt: the BigInteger.js calls tracers make, over the engine's own BigInt. */
  function Big(value) { this.value = value; }
  function bigInt(v, base) {
    if (v instanceof Big) return v;
    if (typeof v === 'bigint') return new Big(v);
    if (v === undefined || v === null) return new Big(0n);
    if (typeof v === 'number') return new Big(BigInt(Math.trunc(v)));
    var text = String(v).trim();
    var negative = text[0] === '-';
    if (negative || text[0] === '+') text = text.slice(1);
    var radix = base === undefined ? 10 : int(base);
    var n;
    if (radix === 10) n = BigInt(text);
    else {
      n = 0n;
      for (var i = 0; i < text.length; i++) {
        var d = parseInt(text[i], radix);
        if (d !== d) throw new Error('Invalid integer: ' + String(v));
        n = n * BigInt(radix) + BigInt(d);
      }
    }
    return new Big(negative ? -n : n);
  }
  function val(v) { return bigInt(v).value; }
  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  var P = Big.prototype;
  P.add = P.plus = function (o) { return new Big(this.value + val(o)); };
  P.subtract = P.minus = function (o) { return new Big(this.value - val(o)); };
  P.multiply = P.times = function (o) { return new Big(this.value * val(o)); };
  P.divide = P.over = function (o) {
    var d = val(o);
    if (d === 0n) throw new Error('Cannot divide by zero');
    return new Big(this.value / d);
  };
  P.mod = P.remainder = function (o) {
    var d = val(o);
    if (d === 0n) throw new Error('Cannot divide by zero');
    return new Big(this.value % d);
  };
  P.divmod = function (o) { return { quotient: this.divide(o), remainder: this.mod(o) }; };
  P.pow = function (o) {
    var e = val(o);
    if (e < 0n) return new Big(this.value === 1n ? 1n : this.value === -1n ? (e % 2n ? -1n : 1n) : 0n);
    return new Big(this.value ** e);
  };
  P.modPow = function (e, m) {
    var base = this.value, exp = val(e), mod = val(m), r = 1n;
    if (mod === 0n) throw new Error('Cannot take modPow with modulus 0');
    base %= mod;
    while (exp > 0n) { if (exp & 1n) r = (r * base) % mod; exp >>= 1n; base = (base * base) % mod; }
    return new Big(r < 0n ? r + (mod < 0n ? -mod : mod) : r);
  };
  P.square = function () { return new Big(this.value * this.value); };
  P.negate = function () { return new Big(-this.value); };
  P.abs = function () { return new Big(this.value < 0n ? -this.value : this.value); };
  P.next = function () { return new Big(this.value + 1n); };
  P.prev = function () { return new Big(this.value - 1n); };
  P.shiftLeft = function (n) { return new Big(this.value << BigInt(int(n))); };
  P.shiftRight = function (n) { return new Big(this.value >> BigInt(int(n))); };
  P.and = function (o) { return new Big(this.value & val(o)); };
  P.or = function (o) { return new Big(this.value | val(o)); };
  P.xor = function (o) { return new Big(this.value ^ val(o)); };
  P.not = function () { return new Big(~this.value); };
  P.compare = P.compareTo = function (o) { return cmp(this.value, val(o)); };
  P.compareAbs = function (o) {
    var a = this.value < 0n ? -this.value : this.value, b = val(o);
    return cmp(a, b < 0n ? -b : b);
  };
  P.equals = P.eq = function (o) { return this.value === val(o); };
  P.notEquals = P.neq = function (o) { return this.value !== val(o); };
  P.greater = P.gt = function (o) { return this.value > val(o); };
  P.greaterOrEquals = P.geq = function (o) { return this.value >= val(o); };
  P.lesser = P.lt = function (o) { return this.value < val(o); };
  P.lesserOrEquals = P.leq = function (o) { return this.value <= val(o); };
  P.isZero = function () { return this.value === 0n; };
  P.isNegative = function () { return this.value < 0n; };
  P.isPositive = function () { return this.value > 0n; };
  P.isEven = function () { return this.value % 2n === 0n; };
  P.isOdd = function () { return this.value % 2n !== 0n; };
  P.isUnit = function () { return this.value === 1n || this.value === -1n; };
  P.toString = function (radix) { return this.value.toString(radix === undefined ? 10 : int(radix)); };
  P.toJSON = function () { return this.value.toString(); };
  P.valueOf = P.toJSNumber = function () { return Number(this.value); };
  bigInt.zero = new Big(0n);
  bigInt.one = new Big(1n);
  bigInt.minusOne = new Big(-1n);
  bigInt.isInstance = function (v) { return v instanceof Big; };
  bigInt.max = function (a, b) { return bigInt(val(a) > val(b) ? a : b); };
  bigInt.min = function (a, b) { return bigInt(val(a) < val(b) ? a : b); };

  function addressArg(v) { return hexOf(lastBytes(fromBuf(v, false), 20)); }

  var globals = {
    bigInt: bigInt,
    toHex: function (v) { return hexOf(fromBuf(v, false)); },
    toWord: function (v) { return lastBytes(fromBuf(v, true), 32); },
    toAddress: function (v) { return lastBytes(fromBuf(v, true), 20); },
    toContract: function (from, nonce) {
      return bytesOf(host('create', hexOf(lastBytes(fromBuf(from, true), 20)), int(nonce)));
    },
    toContract2: function (from, salt, initcode) {
      var sender = hexOf(lastBytes(fromBuf(from, true), 20));
      var code = hexOf(fromBuf(initcode, true));
      return bytesOf(host('create2', sender, hexOf(lastBytes(goHexBytes(String(salt)), 32)), code));
    },
    isPrecompiled: function (v) { return host('precompiled', hexOf(lastBytes(fromBuf(v, true), 20))); },
    slice: function (buf, start, end) {
      var bytes = fromBuf(buf, false);
      start = int(start);
      end = int(end);
      if (start < 0 || start > end || end > bytes.length)
        interrupt('Tracer accessed out of bound memory: available ' + bytes.length + ', offset ' + start + ', size ' + (end - start));
      return bytes.slice(start, end);
    },
  };
  for (var name in globals)
    Object.defineProperty(G, name, { value: globals[name], writable: true, configurable: true });

  var op = {
    toNumber: function () { return host('op'); },
    toString: function () { return host('opName'); },
    isPush: function () { var n = host('op'); return n >= 0x5f && n <= 0x7f; },
  };
  var stack = {
    peek: function (i) {
      i = int(i);
      var size = host('stackLength');
      if (i < 0 || i >= size) interrupt('tracer accessed out of bound stack: size ' + size + ', index ' + i);
      return bigInt(host('peek', i));
    },
    length: function () { return host('stackLength'); },
  };
  var PAD_LIMIT = 1024 * 1024;
  var memory = {
    slice: function (begin, end) {
      begin = int(begin);
      end = int(end);
      if (end === begin) return new Uint8Array(0);
      if (end < begin || begin < 0) interrupt('tracer accessed out of bound memory: offset ' + begin + ', end ' + end);
      var size = host('memoryLength');
      if (end - size > PAD_LIMIT) interrupt('reached limit for padding memory slice: ' + (end - size));
      var out = new Uint8Array(end - begin);
      if (begin < size) out.set(bytesOf(host('memory', begin, Math.min(end, size))));
      return out;
    },
    getUint: function (at) {
      at = int(at);
      var size = host('memoryLength');
      if (size < at + 32 || at < 0) interrupt('tracer accessed out of bound memory: available ' + size + ', offset ' + at + ', size 32');
      return bigInt(BigInt(host('memory', at, at + 32)));
    },
    length: function () { return host('memoryLength'); },
  };
  var contract = {
    getCaller: function () { return bytesOf(host('caller')); },
    getAddress: function () { return bytesOf(host('address')); },
    getValue: function () { return bigInt(host('value')); },
    getInput: function () { return bytesOf(host('input')); },
  };
  var log = {
    op: op, stack: stack, memory: memory, contract: contract,
    getPC: function () { return host('pc'); },
    getGas: function () { return host('gas'); },
    getCost: function () { return host('cost'); },
    getDepth: function () { return host('depth'); },
    getRefund: function () { return host('refund'); },
    getError: function () { return host('error'); },
  };
  var db = {
    getBalance: function (a) { return bigInt(host('balance', addressArg(a))); },
    getNonce: function (a) { return host('nonce', addressArg(a)); },
    getCode: function (a) { return bytesOf(host('code', addressArg(a))); },
    getState: function (a, slot) {
      var address = addressArg(a);
      return bytesOf(host('state', address, hexOf(lastBytes(fromBuf(slot, false), 32))));
    },
    exists: function (a) { return host('exists', addressArg(a)); },
  };
  var frame = {
    getType: function () { return host('frameType'); },
    getFrom: function () { return bytesOf(host('frameFrom')); },
    getTo: function () { return bytesOf(host('frameTo')); },
    getInput: function () { return bytesOf(host('frameInput')); },
    getGas: function () { return host('frameGas'); },
    getValue: function () { var v = host('frameValue'); return v === undefined ? undefined : bigInt(v); },
  };
  var frameResult = {
    getGasUsed: function () { return host('frameGasUsed'); },
    getOutput: function () { return bytesOf(host('frameOutput')); },
    getError: function () { return host('frameError'); },
  };

  /* The context result() sees; byte fields are arrays of numbers, as goja shows Go's []byte. */
  function contextObject() {
    var raw = parse(host('context'));
    var ctx = {};
    for (var key in raw) {
      var v = raw[key];
      if (key === 'value' || key === 'gasPrice') ctx[key] = bigInt(v);
      else if (typeof v === 'string' && v.slice(0, 2) === '0x') ctx[key] = Array.from(bytesOf(v));
      else ctx[key] = v;
    }
    return ctx;
  }

  var tracer;
  function init(evaluate) {
    var made;
    try {
      made = evaluate();
    } catch (e) {
      return 'E' + describe(e);
    }
    try {
      var t = Object(made);
      if (typeof t.result !== 'function') return 'Etrace object must expose a function result()';
      if (typeof t.fault !== 'function') return 'Etrace object must expose a function fault()';
      var hasEnter = typeof t.enter === 'function';
      if (hasEnter !== (typeof t.exit === 'function'))
        return 'Etrace object must expose either both or none of enter() and exit()';
      tracer = t;
      if (typeof t.setup === 'function') t.setup(host('config'));
      return 'R' + stringify({ step: typeof t.step === 'function', frames: hasEnter });
    } catch (e) {
      return 'E' + describe(e);
    }
  }
  function call() {
    var job = host('job');
    try {
      if (job === 'steps') {
        var count = host('stepCount');
        for (var i = 0; i < count; i++) {
          host('select', i);
          tracer.step(log, db);
        }
      }
      else if (job === 'fault') tracer.fault(log, db);
      else if (job === 'enter') tracer.enter(frame);
      else if (job === 'exit') tracer.exit(frameResult);
      else if (job === 'result') {
        var json = stringify(tracer.result(contextObject(), db));
        return 'R' + (json === undefined ? 'null' : json);
      }
      return '';
    } catch (e) {
      return 'E' + describe(e);
    }
  }
  Object.defineProperty(G, '__flurryInit', { value: init });
  Object.defineProperty(G, '__flurryCall', { value: call });
})`;
