// How the scripted demo model "understands" code: it looks for the arithmetic methods of a
// calculator (Add, Subtract, Multiply, Divide) whose result uses the wrong operator, in text it
// has read through the real tools. Deliberately narrow: it exists so the bundled sample can be
// fixed without an API key, by the same tools and validation a real model would go through.

export interface ArithmeticBug {
  method: string;
  /** 1-based line of the wrong expression. */
  line: number;
  /** The whole line as it is in the file. */
  lineText: string;
  wrongOperator: string;
  rightOperator: string;
  /** The line with the operator corrected. */
  fixedLineText: string;
}

const EXPECTED_OPERATOR: Readonly<Record<string, string>> = { Add: '+', Subtract: '-', Multiply: '*', Divide: '/' };
const DECLARATION = /\b(Add|Subtract|Multiply|Divide)\s*\(\s*[\w.<>?]+\s+(\w+)\s*,\s*[\w.<>?]+\s+(\w+)\s*\)/;

/** Strips `cat -n` style numbering ("     12\tcode") that read_file and view put in front of lines. */
export function stripLineNumbers(toolOutput: string): Array<{ line: number; text: string }> {
  const lines: Array<{ line: number; text: string }> = [];
  for (const raw of toolOutput.split('\n')) {
    const match = /^\s*(\d+)\t(.*)$/.exec(raw);
    if (match) lines.push({ line: Number(match[1]), text: match[2] });
  }
  return lines;
}

export function findArithmeticBug(lines: ReadonlyArray<{ line: number; text: string }>): ArithmeticBug | null {
  for (let index = 0; index < lines.length; index++) {
    const declaration = DECLARATION.exec(lines[index].text);
    if (!declaration) continue;
    const [, method, left, right] = declaration;
    const expected = EXPECTED_OPERATOR[method];
    // The body: the rest of an expression-bodied member, or the lines up to the next declaration.
    for (let bodyIndex = index; bodyIndex < Math.min(lines.length, index + 15); bodyIndex++) {
      if (bodyIndex > index && DECLARATION.test(lines[bodyIndex].text)) break;
      const text = bodyIndex === index ? lines[bodyIndex].text.slice(declaration.index + declaration[0].length) : lines[bodyIndex].text;
      const expression = new RegExp(`\\b${left}\\s*([-+*/%])\\s*${right}\\b`).exec(text);
      if (!expression || !/=>|\breturn\b/.test(text)) continue;
      const wrong = expression[1];
      if (wrong === expected) break;
      const lineText = lines[bodyIndex].text;
      const offset = bodyIndex === index ? declaration.index + declaration[0].length : 0;
      const fixedLineText =
        lineText.slice(0, offset + expression.index) +
        expression[0].replace(wrong, expected) +
        lineText.slice(offset + expression.index + expression[0].length);
      return { method, line: lines[bodyIndex].line, lineText, wrongOperator: wrong, rightOperator: expected, fixedLineText };
    }
  }
  return null;
}
