import { ApiInteger, ApiText } from '../common/api-fields';


/** `GET /api/v1/submissions/{id}/artifact`: where the artifact is and how to check it (DECISIONS §5). */
export class ArtifactDescriptorDto {
  @ApiText('Submission id.')
  submission_id!: string;

  @ApiText('Public artifact URI.')
  artifact_uri!: string;

  @ApiText('Lowercase SHA-256 of the artifact bytes.')
  artifact_sha256!: string;

  @ApiInteger('Artifact size in bytes.')
  artifact_size_bytes!: number;
}
