// Workspace containment for the engine's answers. The engine is trusted code, but what it reads is
// the repository's: a project can link a file from anywhere (<Compile Include="../../x.cs" Link=.../>),
// and generated or metadata sources live outside the workspace. A place the containment check
// (resolveWorkspacePath: `..`, absolute paths, links that lead out, .git and .ironbees) refuses is
// never handed to the model, which would read or edit it next.

import type { RelatedType, TypeRelations } from '../../host';
import { filterInsideWorkspace } from '../../workspace/paths';

export class EngineAnswerFilter {
  constructor(private readonly root: string) {}

  /** The answers whose file is inside the workspace, in order. */
  places<T extends { filePath: string }>(found: readonly T[]): T[] {
    const inside = this.insideOf(found.map((place) => place.filePath));
    return found.filter((place) => inside.has(place.filePath));
  }

  /** Types declared outside are left out; a base or derived type declared outside keeps its name, not its place. */
  relations(found: readonly TypeRelations[]): TypeRelations[] {
    const inside = this.insideOf(found.flatMap((r) => [r.type.filePath, ...[...r.supertypes, ...r.subtypes].map((t) => t.filePath ?? '')]));
    const related = (type: RelatedType): RelatedType => {
      if (type.filePath === undefined || inside.has(type.filePath)) return type;
      const { filePath: _filePath, line: _line, column: _column, ...named } = type;
      return named;
    };
    return found
      .filter((relation) => inside.has(relation.type.filePath))
      .map((relation) => ({ ...relation, supertypes: relation.supertypes.map(related), subtypes: relation.subtypes.map(related) }));
  }

  /** The distinct paths the containment check keeps (the root's real path is looked up once per answer). */
  private insideOf(paths: readonly unknown[]): Set<string> {
    const distinct = [...new Set(paths.filter((p): p is string => typeof p === 'string' && p !== ''))];
    return new Set(filterInsideWorkspace(this.root, distinct));
  }
}
