// Runs static/js/fairness.js under node (v20: globalThis.crypto.subtle is Web Crypto).
//   node verify_with_js.mjs FAIRNESS_MODULE RECORD...   prints {"<file name>": answer}
//   node verify_with_js.mjs FAIRNESS_MODULE --list FILE  (FILE: a JSON list of records)
//                                                        prints [answer, ...]
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";

const [modulePath, ...files] = process.argv.slice(2);
const { verifyRecord } = await import(pathToFileURL(modulePath).href);
const read = (file) => JSON.parse(readFileSync(file, "utf8"));
let answers;
if (files[0] === "--list") {
  answers = [];
  for (const record of read(files[1])) answers.push(await verifyRecord(record));
} else {
  answers = {};
  for (const file of files) answers[basename(file)] = await verifyRecord(read(file));
}
process.stdout.write(JSON.stringify(answers));
