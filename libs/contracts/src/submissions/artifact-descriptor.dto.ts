import { ApiProperty } from '@nestjs/swagger';

/** `GET /api/v1/submissions/{id}/artifact`: where the artifact is and how to check it (DECISIONS §5). */
export class ArtifactDescriptorDto {
  @ApiProperty({ type: String, description: 'Submission id.' })
  submission_id!: string;

  @ApiProperty({ type: String, description: 'Public artifact URI.' })
  artifact_uri!: string;

  @ApiProperty({ type: String, description: 'Lowercase SHA-256 of the artifact bytes.' })
  artifact_sha256!: string;

  @ApiProperty({ description: 'Artifact size in bytes.', type: 'integer' })
  artifact_size_bytes!: number;
}
