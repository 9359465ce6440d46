/**
 * The example workflows built into pflow (`pflow examples`), embedded so they work from any
 * directory. GENERATED from examples/*.pflow.md by scripts/embed_examples.ts — edit those
 * files and re-run the script; do not edit this one.
 */
export const EXAMPLES: Readonly<Record<string, string>> = {
  "hello":
    "# Hello\n\nGreets someone by name. The greeting is built by an echo step and shouted by a shell step, so the\nworkflow runs offline with no setup.\n\n## Inputs\n\n### name\n\nWho to greet.\n\n- type: string\n- required: false\n- default: World\n\n## Steps\n\n### greet\n\nBuild the greeting text from the name.\n\n- type: echo\n- message: Hello, ${name}!\n\n### shout\n\nPrint the greeting in capitals, without a trailing newline.\n\n- type: shell\n- stdin: ${greet.echo}\n\n```shell command\ntr '[:lower:]' '[:upper:]' | tr -d '\\n'\n```\n\n## Outputs\n\n### greeting\n\nThe greeting, in capitals.\n\n- source: ${shout.stdout}\n",
  "word-count":
    "# Word Count\n\nWrites a text to a file, reads it back and counts its words: a small pipeline over the file nodes\nand the shell, with data passed between steps by templates.\n\n## Inputs\n\n### text\n\nThe text whose words are counted.\n\n- type: string\n- required: false\n- default: the quick brown fox jumps over the lazy dog\n\n### file\n\nWhere the text is written before it is read back.\n\n- type: string\n- required: false\n- default: word-count.txt\n\n## Steps\n\n### save-text\n\nWrite the text to the file.\n\n- type: write-file\n- file_path: ${file}\n- content: ${text}\n\n### read-back\n\nRead the file that was just written.\n\n- type: read-file\n- file_path: ${save-text.path}\n\n### count\n\nCount the words of the file's content.\n\n- type: shell\n- stdin: ${read-back.content}\n\n```shell command\nwc -w | tr -d ' \\n'\n```\n\n### report\n\nSay how many words there were.\n\n- type: echo\n- message: \"${file} has ${count.stdout} words\"\n\n## Outputs\n\n### words\n\nThe number of words, as text.\n\n- source: ${count.stdout}\n\n### summary\n\nA sentence saying how many words the file has.\n\n- source: ${report.echo}\n",
};
