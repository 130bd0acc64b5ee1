/**
 * Solidity sources of the contracts the EVM data tests deploy, compiled in-process with `solc`:
 * an ERC-20, an ERC-721 and an ERC-1155 (each with the standard events and metadata methods), a
 * token without metadata methods, and a factory that deploys contracts (CREATE and CREATE2) and
 * forwards value internally.
 */
import solc from 'solc';

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Token20 {
  string public name; string public symbol; uint8 public decimals; uint256 public totalSupply;
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;
  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);
  constructor(string memory n, string memory s, uint8 d, uint256 supply) {
    name = n; symbol = s; decimals = d; totalSupply = supply; balanceOf[msg.sender] = supply;
    emit Transfer(address(0), msg.sender, supply);
  }
  function transfer(address to, uint256 v) external returns (bool) { _move(msg.sender, to, v); return true; }
  function approve(address s, uint256 v) external returns (bool) { allowance[msg.sender][s] = v; emit Approval(msg.sender, s, v); return true; }
  function transferFrom(address f, address t, uint256 v) external returns (bool) {
    require(allowance[f][msg.sender] >= v, "allowance"); allowance[f][msg.sender] -= v; _move(f, t, v); return true;
  }
  function _move(address f, address t, uint256 v) internal {
    require(balanceOf[f] >= v, "balance"); balanceOf[f] -= v; balanceOf[t] += v; emit Transfer(f, t, v);
  }
}

/** Emits ERC-20 Transfer events but has no name/symbol/decimals: metadata reads must not break. */
contract Bare20 {
  event Transfer(address indexed from, address indexed to, uint256 value);
  function pay(address to, uint256 v) external { emit Transfer(msg.sender, to, v); }
}

contract Nft721 {
  string public name; string public symbol; string private base;
  mapping(uint256 => address) public ownerOf;
  mapping(address => uint256) public balanceOf;
  event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
  constructor(string memory n, string memory s, string memory b) { name = n; symbol = s; base = b; }
  function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0x80ac58cd || id == 0x5b5e139f || id == 0x01ffc9a7; }
  function mint(address to, uint256 id) external { require(ownerOf[id] == address(0), "exists"); ownerOf[id] = to; balanceOf[to]++; emit Transfer(address(0), to, id); }
  function transferFrom(address f, address t, uint256 id) public { require(ownerOf[id] == f && msg.sender == f, "owner"); ownerOf[id] = t; balanceOf[f]--; balanceOf[t]++; emit Transfer(f, t, id); }
  function safeTransferFrom(address f, address t, uint256 id) external { transferFrom(f, t, id); }
  function tokenURI(uint256 id) external view returns (string memory) { require(ownerOf[id] != address(0), "missing"); return string.concat(base, _str(id)); }
  function _str(uint256 v) internal pure returns (string memory) {
    if (v == 0) return "0"; uint256 l; for (uint256 t = v; t != 0; t /= 10) l++;
    bytes memory b = new bytes(l); while (v != 0) { b[--l] = bytes1(uint8(48 + v % 10)); v /= 10; } return string(b);
  }
}

contract Multi1155 {
  string private u;
  mapping(uint256 => mapping(address => uint256)) public balanceOf;
  event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
  event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
  constructor(string memory uri_) { u = uri_; }
  function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0xd9b67a26 || id == 0x0e89341c || id == 0x01ffc9a7; }
  function uri(uint256) external view returns (string memory) { return u; }
  function mint(address to, uint256 id, uint256 v) external { balanceOf[id][to] += v; emit TransferSingle(msg.sender, address(0), to, id, v); }
  function safeTransferFrom(address f, address t, uint256 id, uint256 v, bytes calldata) external {
    require(f == msg.sender && balanceOf[id][f] >= v, "balance"); balanceOf[id][f] -= v; balanceOf[id][t] += v; emit TransferSingle(msg.sender, f, t, id, v);
  }
  function safeBatchTransferFrom(address f, address t, uint256[] calldata ids, uint256[] calldata vs, bytes calldata) external {
    require(f == msg.sender && ids.length == vs.length, "args");
    for (uint256 i = 0; i < ids.length; i++) { require(balanceOf[ids[i]][f] >= vs[i], "balance"); balanceOf[ids[i]][f] -= vs[i]; balanceOf[ids[i]][t] += vs[i]; }
    emit TransferBatch(msg.sender, f, t, ids, vs);
  }
}

contract Child { constructor() payable {} receive() external payable {} }

contract Factory {
  event Deployed(address child);
  /** CREATE with half the value, CREATE2 with none, then forwards the rest to \`to\`. */
  function deployAndForward(address payable to, bytes32 salt) external payable returns (address a, address b) {
    a = address(new Child{value: msg.value / 2}());
    b = address(new Child{salt: salt}());
    (bool ok, ) = to.call{value: msg.value - msg.value / 2}("");
    require(ok, "forward");
    emit Deployed(a); emit Deployed(b);
  }
  /** A value call that reverts inside: the internal transaction is listed as reverted. */
  function tryForward(address payable to) external payable {
    try this.inner{value: msg.value}(to) {} catch {}
  }
  function inner(address payable to) external payable { to.transfer(msg.value); revert("no"); }
  receive() external payable {}
}
`;

export interface Compiled {
  abi: any[];
  bytecode: `0x${string}`;
}

/** Compiles one Solidity source in-process (optimizer on, 200 runs); the contracts by name. */
export function compileSolidity(
  file: string,
  content: string,
  evmVersion = 'paris',
): Record<string, Compiled> {
  const input = {
    language: 'Solidity',
    sources: { [file]: { content } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: any) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e: any) => e.formattedMessage).join('\n'));
  const compiled: Record<string, Compiled> = {};
  for (const [name, c] of Object.entries<any>(output.contracts[file]))
    compiled[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  return compiled;
}

let cache: Record<string, Compiled> | undefined;

export function compileContracts(): Record<string, Compiled> {
  cache ??= compileSolidity('Flurry.sol', SOURCE);
  return cache;
}
