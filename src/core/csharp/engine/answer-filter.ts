// Workspace containment for the engine's answers. The engine is trusted code, but what it reads is
// the repository's: a project can link a file from anywhere (<Compile Include="../../x.cs" Link=.../>),
// and generated or metadata sources live outside the workspace. A place the containment check
// (resolveWorkspacePath: `..`, absolute paths, links that lead out, .git and .ironbees) refuses is
// never handed to the model, which would read or edit it next.

import type { RelatedType, TypeRelations } from '../../host';
import { isInsideWorkspace } from '../../workspace/paths';

export class EngineAnswerFilter {
  constructor(private readonly root: string) {}

  /** The answers whose file is inside the workspace, in order. */
  places<T extends { filePath: string }>(found: readonly T[]): T[] {
    return found.filter((place) => this.isInside(place.filePath));
  }

  /** Types declared outside are left out; a base or derived type declared outside keeps its name, not its place. */
  relations(found: readonly TypeRelations[]): TypeRelations[] {
    return found
      .filter((relation) => this.isInside(relation.type.filePath))
      .map((relation) => ({ ...relation, supertypes: relation.supertypes.map((t) => this.related(t)), subtypes: relation.subtypes.map((t) => this.related(t)) }));
  }

  private related(type: RelatedType): RelatedType {
    if (type.filePath === undefined || this.isInside(type.filePath)) return type;
    const { filePath: _filePath, line: _line, column: _column, ...named } = type;
    return named;
  }

  private isInside(filePath: unknown): boolean {
    return typeof filePath === 'string' && filePath !== '' && isInsideWorkspace(this.root, filePath);
  }
}
